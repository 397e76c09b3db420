import { createWriteStream } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { InterruptedError, StepFailedError } from '../../core/errors.js';
import { sectionDefault } from '../../core/config/sections.js';
import type { CommandContext } from '../../io/command-context.js';
import { journalDirName } from '../../io/journal.js';
import { exists } from '../../io/project.js';
import { probeDown } from '../../io/health-probe.js';
import { runLogged } from '../../io/logged-process.js';
import { removeWorktree, type KeptWorktree } from './throwaway-worktree.js';

/**
 * The smoke test's server left running for a person to try (DESIGN §11): what `relctl smoke
 * --stop` needs to end it, recorded in `.relctl/smoke-running.json` of the project (git-ignored
 * with the journal). One at a time: a new smoke test ends the recorded one first.
 */
export interface RunningSmoke {
  healthUrl: string;
  /** Where the distribution's commands run: the throwaway worktree, or the clone itself. */
  dir: string;
  /** Set when `dir` is a throwaway worktree relctl removes after the stop. */
  worktree?: KeptWorktree;
  /** The log the run wrote; the stop appends to it. */
  log: string;
  startedAt: string;
  /** What runs: `demoComponentVersion=1.1.0`. */
  deployed?: string;
}

export const stopHint = 'relctl smoke --stop';

function stateFile(ctx: CommandContext): string {
  return path.join(ctx.cwd, journalDirName, 'smoke-running.json');
}

export async function readRunning(ctx: CommandContext): Promise<RunningSmoke | undefined> {
  const text = await readFile(stateFile(ctx), 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  try {
    const r = JSON.parse(text) as Partial<RunningSmoke>;
    return typeof r.healthUrl === 'string' && typeof r.dir === 'string' && typeof r.log === 'string' ? (r as RunningSmoke) : undefined;
  } catch {
    return undefined;
  }
}

export async function recordRunning(ctx: CommandContext, running: RunningSmoke): Promise<void> {
  await mkdir(path.dirname(stateFile(ctx)), { recursive: true });
  await writeFile(path.join(ctx.cwd, journalDirName, '.gitignore'), '*\n');
  await writeFile(stateFile(ctx), `${JSON.stringify(running, null, 2)}\n`, { mode: 0o600 });
}

/** What a stop command said last (masked), as the tail of an error or warning; '' when it said nothing. */
export function stopSaid(said: readonly string[]): string {
  return said.length === 0 ? '' : `\nthe stop command said:\n${said.map((l) => `  ${l}`).join('\n')}`;
}

export interface StoppedSmoke {
  healthUrl: string;
  dir: string;
  /** The stop command's exit code (undefined: not run, its folder was gone). */
  stopExit?: number;
  worktreeRemoved: boolean;
}


/**
 * Ends a recorded smoke-test server: the configured stop command in its folder, then its health
 * URL must stop answering within the deadline; only then is its worktree removed and the record
 * dropped. A server still answering is a step failure (exit 1) and the record stays, so
 * `relctl smoke --stop` can be run again once the cause is fixed.
 */
export async function stopRunning(ctx: CommandContext, running: RunningSmoke): Promise<StoppedSmoke> {
  const stop = ctx.config.distribution?.smoke?.stop ?? (sectionDefault('distribution.smoke.stop') as string[]);
  const deadlineS = ctx.config.distribution?.smoke?.deadline ?? (sectionDefault('distribution.smoke.deadline') as number);
  let stopExit: number | undefined;
  let said: string[] = [];
  if (await exists(running.dir)) {
    await mkdir(path.dirname(running.log), { recursive: true });
    const log = createWriteStream(running.log, { flags: 'a', mode: 0o600 });
    try {
      const [command, ...args] = stop;
      ctx.out.info(`smoke --stop: ${stop.join(' ')} (in ${running.dir})`);
      const r = await runLogged({ command: command!, args, cwd: running.dir, env: ctx.env, log, redact: (t) => ctx.out.redactor.redact(t), signal: AbortSignal.any([ctx.signal, AbortSignal.timeout(120_000)]) });
      stopExit = r.exitCode;
      said = r.said;
      if (r.spawnError !== undefined) ctx.out.warn(`Cannot run ${command}: ${r.spawnError}.`);
    } finally {
      await new Promise<void>((resolve) => log.end(resolve));
    }
  } else {
    ctx.out.warn(`${running.dir} is gone: the stop command cannot run there; checking whether ${running.healthUrl} still answers.`);
  }
  const down = await probeDown(running.healthUrl, { deadlineMs: deadlineS * 1000, requestTimeoutMs: ctx.config.timeout * 1000, signal: ctx.signal });
  // Interrupted while waiting: the record stays, nothing is claimed about the server.
  if (ctx.signal.aborted) throw new InterruptedError(`Interrupted while stopping the smoke test; run ${stopHint} again.`);
  if (!down.down) {
    throw new StepFailedError(
      `The stop command (${stop.join(' ')}) ${stopExit === 0 ? 'ran' : stopExit === undefined ? 'did not run' : `failed with exit ${stopExit}`}, but ${running.healthUrl} still answers after ${deadlineS} s (${down.last.slice(0, 80)}): the smoke-test server is still up.${stopSaid(said)}`,
      {
        kind: 'smoke-failed',
        fix: `Stop the server yourself (or fix distribution.smoke.stop), then run ${stopHint} again to remove ${running.worktree === undefined ? 'the record' : `its worktree ${running.dir}`} (log: ${running.log}).`,
        data: { log: running.log },
      },
    );
  }
  if (running.worktree !== undefined) await removeWorktree(ctx, running.worktree);
  await rm(stateFile(ctx), { force: true });
  return { healthUrl: running.healthUrl, dir: running.dir, ...(stopExit === undefined ? {} : { stopExit }), worktreeRemoved: running.worktree !== undefined };
}
