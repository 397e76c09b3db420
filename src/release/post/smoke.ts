import { createWriteStream } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { InterruptedError, StepFailedError, UsageError } from '../../core/errors.js';
import { sectionDefault } from '../../core/config/sections.js';
import type { CommandContext } from '../../io/command-context.js';
import { journalDirName } from '../../io/journal.js';
import { probeHealth, type ProbeResult } from '../../io/health-probe.js';
import { runLogged } from '../../io/logged-process.js';
import type { ProcessRunner } from '../../io/process-runner.js';
import type { Spinner } from '../../ui/output.js';
import { localDistributionDir } from './distribution-dir.js';
import { snapshotWorktree, type SnapshotWorktree } from './smoke-snapshot.js';

export interface SmokeRequest {
  snapshot: boolean;
  /** --snapshot after the prep step's own local install: do not install again. */
  installed?: boolean;
  /** The distribution folder (default: config distribution.repo as a local path). */
  dir?: string;
}

export interface SmokeResult {
  dir: string;
  healthUrl: string;
  log: string;
  probe: ProbeResult;
  /** --snapshot: the version pinned in the throwaway worktree, and the property. */
  snapshot?: { version: string; property: string };
}

type Phase = 'stop' | 'deploy' | 'start';

function commandOf(ctx: CommandContext, phase: Phase): string[] {
  return ctx.config.distribution?.smoke?.[phase] ?? (sectionDefault(`distribution.smoke.${phase}`) as string[]);
}

const tailLines = 30;

/**
 * `relctl smoke` (seed part 4.8 step 2; `--snapshot`: part 4.7 step 5): stop, clean deploy, start
 * the distribution with output in a log file, then probe the health URL until 2xx. Whatever
 * happens after the start, an interrupt runs the stop command before exiting 130.
 */
export async function runSmoke(ctx: CommandContext, proc: ProcessRunner, request: SmokeRequest): Promise<SmokeResult> {
  const dist = request.dir !== undefined ? path.resolve(ctx.cwd, request.dir) : await localDistributionDir(ctx);
  if (dist === undefined) {
    throw new UsageError('No local distribution to smoke-test: relctl.config.json sets neither a distribution.repo folder nor distribution.smoke.dir.', {
      kind: 'invalid-config',
      fix: 'Set "distribution": {"repo": "../uPortal-start"} or {"smoke": {"dir": "../uPortal-start"}} (a local checkout) in relctl.config.json, or pass --dir.',
    });
  }
  const healthUrl = ctx.config.distribution?.smoke?.healthUrl ?? (sectionDefault('distribution.smoke.healthUrl') as string);
  const deadlineS = ctx.config.distribution?.smoke?.deadline ?? (sectionDefault('distribution.smoke.deadline') as number);
  if (proc.dryRun) {
    for (const phase of ['stop', 'deploy', 'start'] as const) ctx.out.wouldDo(`${commandOf(ctx, phase).join(' ')} (in ${dist})`);
    ctx.out.wouldDo(`GET ${healthUrl} until 2xx (at most ${deadlineS} s)`);
    return { dir: dist, healthUrl, log: '', probe: { healthy: false, attempts: 0, last: 'dry run', ms: 0 } };
  }

  const logDir = path.join(ctx.cwd, journalDirName);
  await mkdir(logDir, { recursive: true });
  await writeFile(path.join(logDir, '.gitignore'), '*\n');
  const logFile = path.join(logDir, `smoke-${new Date().toISOString().replace(/[:.]/g, '-')}.log`);
  const log = createWriteStream(logFile, { flags: 'a', mode: 0o600 });
  ctx.out.info(`smoke: output goes to ${logFile}`);

  // Owning SIGINT/SIGTERM while the distribution runs: cli.ts then only aborts ctx.signal, and
  // this function stops what it started before the exit code 130.
  const hold = (): void => undefined;
  process.on('SIGINT', hold);
  process.on('SIGTERM', hold);
  let worktree: SnapshotWorktree | undefined;
  let spinner: Spinner | undefined;
  const run = async (phase: Phase, cwd: string, signal: AbortSignal | undefined): Promise<{ exitCode: number | undefined; spawnError?: string; interrupted: boolean }> => {
    const [command, ...args] = commandOf(ctx, phase);
    spinner?.update(`smoke: ${phase} (${[command, ...args].join(' ')})`);
    return runLogged({
      command: command!,
      args,
      cwd,
      env: ctx.env,
      log,
      redact: (t) => ctx.out.redactor.redact(t),
      ...(signal === undefined ? {} : { signal }),
      onLine: (line) => spinner?.update(`smoke: ${phase}: ${line.slice(0, 70)}`),
    });
  };
  const stopAfterInterrupt = async (cwd: string): Promise<never> => {
    spinner?.fail('smoke: interrupted');
    ctx.out.warn('Interrupted: stopping what the smoke test started.');
    const r = await run('stop', cwd, AbortSignal.timeout(120_000));
    ctx.out.info(r.exitCode === 0 ? 'Stopped.' : `The stop command ended with exit ${r.exitCode ?? '?'}; check ${logFile}.`);
    throw new InterruptedError('Interrupted during the smoke test; the distribution was stopped.');
  };
  const failed = async (message: string, fix: string, probe?: ProbeResult): Promise<never> => {
    spinner?.fail(`smoke: ${message}`);
    await new Promise<void>((resolve) => log.end(resolve));
    const tail = (await readFile(logFile, 'utf8')).split('\n').filter((l) => l.trim() !== '').slice(-tailLines).join('\n');
    throw new StepFailedError(`${message}${probe === undefined ? '' : `\nlast answer of ${healthUrl}: ${probe.last}`}\n--- last lines of ${logFile} ---\n${tail}`, {
      kind: 'smoke-failed',
      fix,
      data: { log: logFile },
    });
  };

  try {
    let cwd = dist;
    if (request.snapshot) {
      worktree = await snapshotWorktree(ctx, dist, log, { install: request.installed !== true });
      cwd = worktree.dir;
      ctx.out.info(`smoke --snapshot: ${worktree.property}=${worktree.version} in a throwaway worktree of ${dist}`);
    }
    spinner = await ctx.out.spinner('smoke: stop');
    const stop = await run('stop', cwd, ctx.signal);
    if (stop.interrupted) return await stopAfterInterrupt(cwd);
    if (stop.spawnError !== undefined) return await failed(`cannot run ${commandOf(ctx, 'stop')[0]}: ${stop.spawnError}`, 'Check distribution.smoke.stop in relctl.config.json (relative commands run in the distribution folder).');
    // A stop that fails usually means nothing was running: the log keeps its output.
    for (const phase of ['deploy', 'start'] as const) {
      const r = await run(phase, cwd, ctx.signal);
      if (r.interrupted) return await stopAfterInterrupt(cwd);
      if (r.exitCode !== 0) {
        return await failed(
          `the ${phase} command (${commandOf(ctx, phase).join(' ')}) ${r.spawnError === undefined ? `failed with exit ${r.exitCode ?? '?'}` : `could not run: ${r.spawnError}`}.`,
          `Fix what the log shows, then run relctl smoke${request.snapshot ? ' --snapshot' : ''} again.`,
        );
      }
    }
    spinner.update(`smoke: waiting for ${healthUrl} (at most ${deadlineS} s)`);
    const probe = await probeHealth(healthUrl, { deadlineMs: deadlineS * 1000, requestTimeoutMs: ctx.config.timeout * 1000, signal: ctx.signal });
    if (ctx.signal.aborted) return await stopAfterInterrupt(cwd);
    if (!probe.healthy) {
      return await failed(`${healthUrl} did not answer 2xx within ${deadlineS} s (${probe.attempts} attempts).`, 'Look at the log lines above and the server logs; raise distribution.smoke.deadline if the start is just slow.', probe);
    }
    if (request.snapshot) await run('stop', cwd, AbortSignal.timeout(120_000));
    spinner.succeed(`smoke: ${healthUrl} answered ${probe.last.slice(0, 60)} after ${(probe.ms / 1000).toFixed(1)} s`);
    return { dir: dist, healthUrl, log: logFile, probe, ...(worktree === undefined ? {} : { snapshot: { version: worktree.version, property: worktree.property } }) };
  } finally {
    process.off('SIGINT', hold);
    process.off('SIGTERM', hold);
    if (!log.closed) await new Promise<void>((resolve) => log.end(resolve));
    await worktree?.remove();
  }
}
