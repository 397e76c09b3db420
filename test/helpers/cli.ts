import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa, type ResultPromise } from 'execa';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const binPath = path.join(repoRoot, 'bin', 'relctl.js');

export interface CliResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** Where runs without a fixture home keep relctl's state: one folder per run, made only if written. */
const runStateRoot = path.join(os.tmpdir(), `relctl-test-state-${process.pid}`);
let stateRuns = 0;

const ansi = /\u001b\[[0-9;]*m/g;

/**
 * Runs the built CLI (bin/relctl.js → dist/) as a user would, with an isolated environment:
 * HOME is the given fixture home, CI is set (no prompts, no spinners) unless overridden, and no
 * RELCTL_* variable of the developer's shell leaks in (nor NODE_EXTRA_CA_CERTS, see below).
 */
export async function runCli(
  args: string[],
  options: { cwd?: string; home?: string; env?: Record<string, string | undefined>; input?: string; timeoutMs?: number } = {},
): Promise<CliResult> {
  const env: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('RELCTL_')) env[k] = v;
  // relctl only talks to loopback servers here; NODE_EXTRA_CA_CERTS (set on this project's
  // machines to the whole system CA bundle) would cost each of the suite's thousands of starts a
  // certificate load (about 85 ms) for nothing.
  delete env.NODE_EXTRA_CA_CERTS;
  // relctl's record of publications (XDG_STATE_HOME) follows the fixture's home; a run without one
  // gets a folder of its own, so no test counts another's publications, nor the developer's.
  const state = options.home ? path.join(options.home, '.local', 'state') : path.join(runStateRoot, String(++stateRuns));
  Object.assign(env, { CI: 'true', NO_COLOR: '1', FORCE_COLOR: undefined, XDG_STATE_HOME: state }, options.home ? { HOME: options.home } : {}, options.env);
  const result = await execa('node', [binPath, ...args], {
    cwd: options.cwd ?? repoRoot,
    env,
    extendEnv: false,
    reject: false,
    input: options.input ?? '',
    timeout: options.timeoutMs ?? 60_000,
  });
  return {
    exitCode: result.exitCode ?? -1,
    stdout: String(result.stdout).replace(ansi, ''),
    stderr: String(result.stderr).replace(ansi, ''),
  };
}

/** Starts the CLI without waiting (for long-running commands such as `relctl sandbox`). */
export function spawnCli(args: string[], options: { cwd?: string; env?: Record<string, string | undefined> } = {}): ResultPromise {
  return execa('node', [binPath, ...args], {
    cwd: options.cwd ?? repoRoot,
    env: { CI: 'true', NO_COLOR: '1', ...options.env },
    reject: false,
    buffer: false,
  });
}
