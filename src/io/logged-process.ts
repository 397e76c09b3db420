import { spawn } from 'node:child_process';
import type { Writable } from 'node:stream';
import { MeaningfulTail } from '../core/output-tail.js';
import { childEnv } from './child-env.js';
import { outputLines } from './output-lines.js';

/**
 * Runs a long command (a distribution's Gradle tasks) with its output streamed into a log file
 * rather than the terminal; each output line is handed to `onLine` for a progress line. The
 * signal stops the child (SIGTERM), so an interrupted smoke test can still run its stop command.
 */
export interface LoggedSpec {
  command: string;
  args: readonly string[];
  cwd: string;
  /** The environment to start from: relctl's secret variables are removed from it (child-env.ts). */
  env: NodeJS.ProcessEnv;
  log: Writable;
  /** Masks secrets in every line written to the log and handed to onLine (the command's redactor). */
  redact?: (text: string) => string;
  signal?: AbortSignal;
  onLine?: (line: string) => void;
}

export interface LoggedResult {
  exitCode: number | undefined;
  /** Set when the command could not be started (not found, not executable). */
  spawnError?: string;
  interrupted: boolean;
  /** The last lines of its output that say something (masked), for an error that quotes the command. */
  said: string[];
}

export function runLogged(spec: LoggedSpec): Promise<LoggedResult> {
  return new Promise((resolve) => {
    const redact = spec.redact ?? ((t: string) => t);
    spec.log.write(redact(`\n$ ${[spec.command, ...spec.args].join(' ')}   (in ${spec.cwd})\n`));
    if (spec.signal?.aborted === true) return resolve({ exitCode: undefined, interrupted: true, said: [] });
    const child = spawn(spec.command, [...spec.args], { cwd: spec.cwd, env: childEnv(spec.env), stdio: ['ignore', 'pipe', 'pipe'] });
    // Whole lines, each stream on its own, so a secret split across two chunks is still masked.
    const said = new MeaningfulTail();
    const onLine = (raw: string): void => {
      const l = redact(raw);
      spec.log.write(`${l}\n`);
      said.add(l);
      if (l.trim() !== '') spec.onLine?.(l.trimEnd());
    };
    const streams = Promise.all([outputLines(child.stdout, onLine), outputLines(child.stderr, onLine)]);
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
      void streams.then(() => resolve({
        exitCode: code ?? undefined,
        interrupted: spec.signal?.aborted === true,
        said: said.get(),
        ...(spawnError === undefined ? {} : { spawnError }),
      }));
    });
  });
}
