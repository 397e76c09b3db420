import { spawn } from 'node:child_process';
import type { Writable } from 'node:stream';

/**
 * Runs a long command (a distribution's Gradle tasks) with its output streamed into a log file
 * rather than the terminal; each output line is handed to `onLine` for a progress line. The
 * signal stops the child (SIGTERM), so an interrupted smoke test can still run its stop command.
 */
export interface LoggedSpec {
  command: string;
  args: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  log: Writable;
  signal?: AbortSignal;
  onLine?: (line: string) => void;
}

export interface LoggedResult {
  exitCode: number | undefined;
  /** Set when the command could not be started (not found, not executable). */
  spawnError?: string;
  interrupted: boolean;
}

export function runLogged(spec: LoggedSpec): Promise<LoggedResult> {
  return new Promise((resolve) => {
    spec.log.write(`\n$ ${[spec.command, ...spec.args].join(' ')}   (in ${spec.cwd})\n`);
    if (spec.signal?.aborted === true) return resolve({ exitCode: undefined, interrupted: true });
    const child = spawn(spec.command, [...spec.args], { cwd: spec.cwd, env: spec.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let pending = '';
    const onData = (chunk: Buffer): void => {
      spec.log.write(chunk);
      pending += chunk.toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const l of lines) if (l.trim() !== '') spec.onLine?.(l.trimEnd());
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    const abort = (): void => {
      child.kill('SIGTERM');
    };
    spec.signal?.addEventListener('abort', abort, { once: true });
    let spawnError: string | undefined;
    child.on('error', (error) => {
      spawnError = error.message;
    });
    child.on('close', (code) => {
      spec.signal?.removeEventListener('abort', abort);
      if (pending.trim() !== '') spec.onLine?.(pending.trimEnd());
      resolve({
        exitCode: code ?? undefined,
        interrupted: spec.signal?.aborted === true,
        ...(spawnError === undefined ? {} : { spawnError }),
      });
    });
  });
}
