import { createWriteStream } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { InterruptedError, StepFailedError, UsageError } from '../../core/errors.js';
import { sectionDefault } from '../../core/config/sections.js';
import type { CommandContext } from '../../io/command-context.js';
import { journalDirName } from '../../io/journal.js';
import { probeDown, probeHealth, type ProbeResult } from '../../io/health-probe.js';
import { runLogged } from '../../io/logged-process.js';
import type { ProcessRunner } from '../../io/process-runner.js';
import type { Spinner } from '../../ui/output.js';
import { localDistributionDir } from './distribution-dir.js';
import { deployedPin } from './distribution-pin.js';
import { showSnapshotPlan, snapshotWorktree } from './smoke-snapshot.js';
import { readRunning, recordRunning, stopHint, stopRunning, stopSaid } from './smoke-running.js';
import { fetchBranch, smokeSource, type SmokeSource } from './smoke-source.js';
import { pinnedWorktree, throwawayWorktree, type ThrowawayWorktree } from './throwaway-worktree.js';

export interface SmokeRequest {
  snapshot: boolean;
  /** --snapshot after the prep step's own local install: do not install again. */
  installed?: boolean;
  /** The distribution folder (default: config distribution.repo as a local path). */
  dir?: string;
  /** The release whose distribute branch is deployed (default as DESIGN §11). */
  releaseVersion?: string;
  /** Stop the server after the probe (CI, the release chain); by default it keeps running for a person to try. */
  stopAfter?: boolean;
}

export type SmokeSourceShown =
  | { kind: 'branch'; branch: string; version: string }
  | { kind: 'pinned'; branch: string; version: string; why: string }
  | { kind: 'clone'; why: string }
  | { kind: 'snapshot' };

export interface SmokeResult {
  dir: string;
  healthUrl: string;
  log: string;
  probe: ProbeResult;
  /** What was deployed from: the distribute branch, the clone as it is (and why), the snapshot worktree. */
  source: SmokeSourceShown;
  /** The component's version pinned in the folder that was deployed. */
  deployed?: { property: string; version: string };
  /** Each phase and its duration. */
  phases: { phase: string; seconds: number }[];
  /** --stop-after: the server was stopped after the probe (and a throwaway worktree removed). */
  stoppedAfter: boolean;
  /** Otherwise it keeps running for a person to try: where, and how to end it. */
  running?: { healthUrl: string; dir: string; worktree: boolean; stop: string };
  /** --snapshot: the version pinned in the throwaway worktree, and the property. */
  snapshot?: { version: string; property: string };
}

type Phase = 'stop' | 'deploy' | 'start';

function commandOf(ctx: CommandContext, phase: Phase): string[] {
  return ctx.config.distribution?.smoke?.[phase] ?? (sectionDefault(`distribution.smoke.${phase}`) as string[]);
}

const tailLines = 30;
const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

function shown(source: SmokeSource | undefined): SmokeSourceShown {
  if (source === undefined) return { kind: 'snapshot' };
  if (source.kind === 'branch') return { kind: 'branch', branch: source.branch, version: source.version };
  if (source.kind === 'pinned') return { kind: 'pinned', branch: source.branch, version: source.version, why: source.why };
  return { kind: 'clone', why: source.why };
}

/**
 * `relctl smoke` (seed part 4.8 step 2; `--snapshot`: part 4.7 step 5): stop, check the server
 * went down, clean deploy, start the distribution with output in a log file, then probe the
 * health URL until 2xx. After `relctl distribute` it deploys the pull request's branch from a
 * throwaway worktree. Whatever happens after the start, an interrupt runs the stop command before
 * exiting 130. A healthy server keeps running for a person to try, recorded for `relctl smoke
 * --stop` (smoke-running.ts), unless the request says to stop it after the probe.
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
  const source = request.snapshot ? undefined : await smokeSource(ctx, dist, request.releaseVersion);
  if (source?.kind === 'clone') ctx.out.info(`smoke: testing ${dist} as it is: ${source.why}.`);
  if (source?.kind === 'branch') ctx.out.info(`smoke: testing ${source.branch} (relctl distribute for ${source.version}) in a throwaway worktree of ${dist}`);
  if (source?.kind === 'pinned') ctx.out.info(`smoke: ${source.why}; testing ${dist} with the pull request's change (the pin set to ${source.version}) in a throwaway worktree.`);
  const probeNothing: ProbeResult = { healthy: false, attempts: 0, last: 'dry run', ms: 0 };
  if (proc.dryRun) {
    if (request.snapshot) await showSnapshotPlan(ctx, dist, { install: request.installed !== true });
    const previous = await readRunning(ctx);
    if (previous !== undefined) ctx.out.wouldDo(`end the smoke test left running since ${previous.startedAt} (${previous.dir}): ${stopHint}`);
    if (source?.kind === 'branch') {
      if (source.fetch) ctx.out.wouldDo(`git fetch origin ${source.branch} (in ${dist})`);
      ctx.out.wouldDo(`a throwaway worktree of ${dist} at ${source.ref} in a temporary folder (your clone stays untouched)`);
    }
    if (source?.kind === 'pinned') ctx.out.wouldDo(`a throwaway worktree of ${dist} at HEAD in a temporary folder with the pin set to ${source.version} in gradle.properties (your clone stays untouched)`);
    const where = source?.kind === 'clone' ? dist : 'the worktree';
    ctx.out.wouldDo(`${commandOf(ctx, 'stop').join(' ')} (in ${where}), then wait until ${healthUrl} stops answering`);
    for (const phase of ['deploy', 'start'] as const) ctx.out.wouldDo(`${commandOf(ctx, phase).join(' ')} (in ${where})`);
    ctx.out.wouldDo(`GET ${healthUrl} until 2xx (at most ${deadlineS} s)`);
    if (request.stopAfter === true) ctx.out.wouldDo(`${commandOf(ctx, 'stop').join(' ')}${source?.kind === 'clone' ? '' : ', then remove the worktree'}`);
    else ctx.out.wouldDo(`leave the server running for you to try (${stopHint} ends it${source?.kind === 'clone' ? '' : ' and removes the worktree'})`);
    return { dir: dist, healthUrl, log: '', probe: probeNothing, source: shown(source), phases: [], stoppedAfter: false };
  }

  // One smoke-test server at a time: the one an earlier run left for a person ends first, worktree and all.
  const previous = await readRunning(ctx);
  if (previous !== undefined) {
    ctx.out.info(`smoke: ending the smoke test left running since ${previous.startedAt} (${previous.dir}) first`);
    await stopRunning(ctx, previous);
  }
  const logDir = path.join(ctx.cwd, journalDirName);
  await mkdir(logDir, { recursive: true });
  await writeFile(path.join(logDir, '.gitignore'), '*\n');
  const logFile = path.join(logDir, `smoke-${new Date().toISOString().replace(/[:.]/g, '-')}.log`);
  const log = createWriteStream(logFile, { flags: 'a', mode: 0o600 });
  // The mode above applies only to a new file (and under the umask): make sure.
  await new Promise<void>((resolve, reject) => log.once('open', () => resolve()).once('error', reject));
  await chmod(logFile, 0o600);
  ctx.out.info(`smoke: output goes to ${logFile}`);

  // Owning SIGINT/SIGTERM while the distribution runs: cli.ts then only aborts ctx.signal, and
  // this function stops what it started before the exit code 130.
  const hold = (): void => undefined;
  process.on('SIGINT', hold);
  process.on('SIGTERM', hold);
  let worktree: ThrowawayWorktree | undefined;
  let spinner: Spinner | undefined;
  const phases: SmokeResult['phases'] = [];
  /** One line per phase without a terminal (CI logs show where the time went); the spinner on one. */
  const finished = (phase: string, started: number, what = `${phase} done in`): void => {
    const ms = Date.now() - started;
    phases.push({ phase, seconds: Math.round(ms / 100) / 10 });
    if (ctx.out.interactive) spinner?.update(`smoke: ${what} ${seconds(ms)}`);
    else ctx.out.info(`smoke: ${what} ${seconds(ms)}`);
  };
  const run = async (phase: Phase, cwd: string, signal: AbortSignal | undefined, label: string = phase): Promise<{ exitCode: number | undefined; spawnError?: string; interrupted: boolean; said: string[] }> => {
    const [command, ...args] = commandOf(ctx, phase);
    spinner?.update(`smoke: ${phase} (${[command, ...args].join(' ')})`);
    const started = Date.now();
    const r = await runLogged({
      command: command!,
      args,
      cwd,
      env: ctx.env,
      log,
      redact: (t) => ctx.out.redactor.redact(t),
      ...(signal === undefined ? {} : { signal }),
      onLine: (line) => spinner?.update(`smoke: ${phase}: ${line.slice(0, 70)}`),
    });
    if (!r.interrupted) finished(label, started, r.exitCode === 0 ? `${label} done in` : `${label} ended with exit ${r.exitCode ?? '?'} after`);
    return r;
  };
  const stopAfterInterrupt = async (cwd: string): Promise<never> => {
    spinner?.fail('smoke: interrupted');
    ctx.out.warn('Interrupted: stopping what the smoke test started.');
    const r = await run('stop', cwd, AbortSignal.timeout(120_000));
    ctx.out.info(r.exitCode === 0 ? 'Stopped.' : `The stop command ended with exit ${r.exitCode ?? '?'}; check ${logFile}.${stopSaid(r.said)}`);
    throw new InterruptedError('Interrupted during the smoke test; the distribution was stopped.');
  };
  const failed = async (message: string, fix: string, probe?: ProbeResult): Promise<never> => {
    // The error itself is printed once, by the CLI's error handler: the spinner just goes.
    spinner?.stop();
    await new Promise<void>((resolve) => log.end(resolve));
    const tail = (await readFile(logFile, 'utf8')).split('\n').filter((l) => l.trim() !== '').slice(-tailLines).join('\n');
    throw new StepFailedError(`${message}${probe === undefined ? '' : `\nlast answer of ${healthUrl}: ${probe.last}`}\n--- last lines of ${logFile} ---\n${tail}`, {
      kind: 'smoke-failed',
      fix,
      data: { log: logFile },
    });
  };
  const again = `run relctl smoke${request.snapshot ? ' --snapshot' : ''} again`;

  try {
    let cwd = dist;
    let snapshot: SmokeResult['snapshot'];
    if (request.snapshot) {
      const started = Date.now();
      const made = await snapshotWorktree(ctx, dist, log, { install: request.installed !== true });
      worktree = made;
      snapshot = { version: made.version, property: made.property };
      finished('install', started, 'snapshot install and worktree done in');
      ctx.out.info(`smoke --snapshot: ${made.property}=${made.version} in a throwaway worktree of ${dist}`);
    } else if (source?.kind === 'branch') {
      await fetchBranch(ctx, dist, source);
      worktree = await throwawayWorktree(ctx, dist, source.ref);
    } else if (source?.kind === 'pinned') {
      worktree = await pinnedWorktree(ctx, dist, source);
    }
    if (worktree !== undefined) cwd = worktree.dir;
    // The version that runs is the pin in the folder it is deployed from (not the clone's, not the release's).
    const deployed = snapshot ?? (await deployedPin(ctx, cwd, source?.artifactId));

    spinner = await ctx.out.spinner(`smoke: stop (${commandOf(ctx, 'stop').join(' ')})`);
    const stop = await run('stop', cwd, ctx.signal);
    if (stop.interrupted) return await stopAfterInterrupt(cwd);
    if (stop.spawnError !== undefined) return await failed(`cannot run ${commandOf(ctx, 'stop')[0]}: ${stop.spawnError}`, 'Check distribution.smoke.stop in relctl.config.json (relative commands run in the distribution folder).');
    // A failing stop usually means nothing was running; a server that still answers means the
    // old one is up, and deploying under it would report the old version as healthy.
    spinner.update(`smoke: waiting for ${healthUrl} to stop answering (at most ${deadlineS} s)`);
    const downStarted = Date.now();
    const down = await probeDown(healthUrl, { deadlineMs: deadlineS * 1000, requestTimeoutMs: ctx.config.timeout * 1000, signal: ctx.signal });
    if (ctx.signal.aborted) return await stopAfterInterrupt(cwd);
    if (!down.down) {
      const how = stop.exitCode === 0 ? 'ran' : `failed with exit ${stop.exitCode ?? '?'}`;
      return await failed(
        `the stop command (${commandOf(ctx, 'stop').join(' ')}) ${how}, but ${healthUrl} still answers after ${deadlineS} s (${down.last.slice(0, 80)}): the old server is still up, so nothing was deployed.`,
        `Stop the running server yourself (or fix distribution.smoke.stop so it stops it), then ${again}.`,
      );
    }
    finished('down', downStarted, 'server down after');
    for (const phase of ['deploy', 'start'] as const) {
      const r = await run(phase, cwd, ctx.signal);
      if (r.interrupted) return await stopAfterInterrupt(cwd);
      if (r.exitCode !== 0) {
        return await failed(
          `the ${phase} command (${commandOf(ctx, phase).join(' ')}) ${r.spawnError === undefined ? `failed with exit ${r.exitCode ?? '?'}` : `could not run: ${r.spawnError}`}.`,
          `Fix what the log shows, then ${again}.`,
        );
      }
    }
    spinner.update(`smoke: waiting for ${healthUrl} (at most ${deadlineS} s)`);
    const probe = await probeHealth(healthUrl, { deadlineMs: deadlineS * 1000, requestTimeoutMs: ctx.config.timeout * 1000, signal: ctx.signal });
    if (ctx.signal.aborted) return await stopAfterInterrupt(cwd);
    if (!probe.healthy) {
      return await failed(`${healthUrl} did not answer 2xx within ${deadlineS} s (${probe.attempts} attempts).`, 'Look at the log lines above and the server logs; raise distribution.smoke.deadline if the start is just slow.', probe);
    }
    finished('health', Date.now() - probe.ms, 'healthy after');
    let running: SmokeResult['running'];
    if (request.stopAfter === true) {
      const after = await run('stop', cwd, AbortSignal.timeout(120_000), 'final stop');
      if (after.exitCode !== 0) ctx.out.warn(`The stop command after the test ended with exit ${after.exitCode ?? '?'}; check ${logFile}.${stopSaid(after.said)}`);
    } else {
      // The portal stays up for a person's light testing (seed 4.7 step 5): its worktree with it,
      // recorded so that relctl smoke --stop ends both.
      const kept = worktree?.keep();
      const pin = deployed === undefined ? {} : { deployed: `${deployed.property}=${deployed.version}` };
      await recordRunning(ctx, { healthUrl, dir: cwd, ...(kept === undefined ? {} : { worktree: kept }), log: logFile, startedAt: new Date().toISOString(), ...pin });
      running = { healthUrl, dir: cwd, worktree: kept !== undefined, stop: stopHint };
    }
    const what = deployed === undefined ? '' : ` with ${deployed.property}=${deployed.version}`;
    spinner.succeed(`smoke: ${healthUrl} answered ${probe.last.slice(0, 60)} after ${seconds(probe.ms)}${what}`);
    return {
      dir: dist,
      healthUrl,
      log: logFile,
      probe,
      source: shown(source),
      ...(deployed === undefined ? {} : { deployed }),
      phases,
      stoppedAfter: request.stopAfter === true,
      ...(running === undefined ? {} : { running }),
      ...(snapshot === undefined ? {} : { snapshot }),
    };
  } finally {
    process.off('SIGINT', hold);
    process.off('SIGTERM', hold);
    if (!log.closed) await new Promise<void>((resolve) => log.end(resolve));
    await worktree?.remove();
  }
}
