import { readFile } from 'node:fs/promises';
import { execa } from 'execa';
import { binPath, repoRoot, type CliResult } from './cli.js';

export interface MeasuredResult extends CliResult {
  elapsedMs: number;
  /** Date.now() when the process had ended. */
  endedAt: number;
  /** Peak resident memory of the CLI process (VmHWM), in MiB. */
  peakMiB: number;
}

const ansi = /\u001b\[[0-9;]*m/g;

async function highWaterKiB(pid: number): Promise<number | undefined> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => undefined);
  const m = status === undefined ? null : /^VmHWM:\s+(\d+)\s+kB/m.exec(status);
  return m === null ? undefined : Number(m[1]);
}

/**
 * Runs the built CLI like runCli (CI set, no RELCTL_* leaking in) and measures what a user
 * would notice: how long it lived and how much memory it took at its peak (read from /proc while
 * it runs). `killAfterMs` is a safety net so a hanging CLI fails the test instead of the suite.
 */
export async function runCliMeasured(
  args: string[],
  options: { env?: Record<string, string | undefined>; killAfterMs?: number; cwd?: string } = {},
): Promise<MeasuredResult> {
  const env: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('RELCTL_')) env[k] = v;
  Object.assign(env, { CI: 'true', NO_COLOR: '1', FORCE_COLOR: undefined }, options.env);
  const started = Date.now();
  const child = execa('node', [binPath, ...args], {
    cwd: options.cwd ?? repoRoot,
    env,
    extendEnv: false,
    reject: false,
    input: '',
    timeout: options.killAfterMs ?? 30_000,
  });
  let peakKiB = 0;
  const poll = setInterval(() => {
    if (child.pid === undefined) return;
    void highWaterKiB(child.pid).then((kib) => {
      if (kib !== undefined) peakKiB = Math.max(peakKiB, kib);
    });
  }, 20);
  const result = await child;
  clearInterval(poll);
  return {
    exitCode: result.exitCode ?? -1,
    stdout: String(result.stdout).replace(ansi, ''),
    stderr: String(result.stderr).replace(ansi, ''),
    elapsedMs: Date.now() - started,
    endedAt: Date.now(),
    peakMiB: Math.round(peakKiB / 1024),
  };
}
