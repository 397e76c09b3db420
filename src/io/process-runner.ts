import { EnvironmentError, InterruptedError, StepFailedError } from '../core/errors.js';
import { displayCommand } from '../core/release-commands.js';
import type { Output } from '../ui/output.js';
import { childEnv } from './child-env.js';
import { outputLines } from './output-lines.js';
import { killProcessGroup, onInterrupt } from './interrupt.js';

export interface ProcessSpec {
  command: string;
  args: readonly string[];
  cwd: string;
  /** Added to the command context's environment (secrets go here, never into args). */
  env?: Record<string, string>;
  input?: string;
  /** Inherit the terminal: the tool prompts the user itself. */
  interactive?: boolean;
  /** false for read-only commands, which run even in a dry run. */
  mutates: boolean;
  /** What the command is for, in error messages ("mvn release:prepare"). */
  purpose?: string;
}

export interface ProcessResult {
  exitCode: number;
  output: string;
  dryRun: boolean;
}

/**
 * The one way steps start a child process. It owns the dry-run switch (house style, release-it's
 * Shell): a mutating command is printed as a `!` line and not run. Output is captured (and echoed
 * with --verbose); a failure shows the tail of it.
 */
export class ProcessRunner {
  /** What each started command was for, in order (an interrupt names the last one). */
  readonly started: string[] = [];
  /** Told every output line (masked) of the captured children: build progress (src/ui/build-progress.ts). */
  private readonly lineListeners = new Set<(line: string) => void>();

  constructor(
    private readonly out: Output,
    private readonly env: NodeJS.ProcessEnv,
    readonly dryRun: boolean,
    /** Aborted on Ctrl-C / SIGTERM: the running child's whole process group is stopped. */
    private readonly signal?: AbortSignal,
  ) {}

  /** Hands every output line of the commands started until the returned function is called to `listener`. */
  watchLines(listener: (line: string) => void): () => void {
    this.lineListeners.add(listener);
    return () => this.lineListeners.delete(listener);
  }

  private interrupted(): boolean {
    return this.signal?.aborted === true;
  }

  async run(spec: ProcessSpec): Promise<ProcessResult> {
    const line = displayCommand(spec.command, spec.args);
    const where = `(in ${spec.cwd})`;
    if (this.dryRun && spec.mutates) {
      this.out.wouldDo(`${line} ${this.out.c.dim(where)}${spec.input === undefined ? '' : this.out.c.dim(` answering ${JSON.stringify(spec.input)}`)}`);
      return { exitCode: 0, output: '', dryRun: true };
    }
    if (this.interrupted()) throw new InterruptedError();
    this.out.verbose(`$ ${line} ${where}`);
    this.started.push(spec.purpose ?? line);
    const { execa } = await import('execa');
    // Secrets are not inherited: a child gets back only what its caller gives it (spec.env).
    const env = childEnv(this.env, spec.env);
    let result;
    let stopping: Promise<void> | undefined;
    let stop = async (): Promise<void> => undefined;
    const onAbort = (): Promise<void> => (stopping ??= stop());
    const unregister = onInterrupt(onAbort);
    try {
      const child = execa(spec.command, [...spec.args], {
        cwd: spec.cwd,
        env,
        extendEnv: false,
        reject: false,
        // Its own process group (not for a tool that talks to the terminal itself): an interrupt
        // stops the tool and everything it started, and nothing is left behind.
        detached: spec.interactive !== true,
        ...(spec.interactive === true
          ? { stdio: 'inherit' as const }
          : { all: true, input: spec.input ?? '' }),
      });
      // --verbose echoes the child's output on stderr, line by line through the redactor (a child
      // may print a secret it found on its own); stdout carries only relctl's result (--json).
      if (this.out.verboseEnabled && spec.interactive !== true) void outputLines(child.all, (line) => this.out.verbose(line));
      if (this.lineListeners.size > 0 && spec.interactive !== true) {
        const listeners = [...this.lineListeners];
        void outputLines(child.all, (line) => {
          const masked = this.out.redactor.redact(line);
          for (const l of listeners) l(masked);
        });
      }
      const pid = child.pid;
      stop = async () => {
        if (pid === undefined) return;
        if (spec.interactive === true) child.kill('SIGTERM');
        else await killProcessGroup(pid);
      };
      this.signal?.addEventListener('abort', onAbort, { once: true });
      result = await child;
      if (stopping !== undefined) await stopping;
    } catch (error) {
      throw new EnvironmentError(`Cannot start ${spec.command}: ${(error as Error).message}`, {
        kind: 'tool-missing',
        fix: `Install ${spec.command} or put it on PATH.`,
      });
    } finally {
      this.signal?.removeEventListener('abort', onAbort);
      unregister();
    }
    if (this.interrupted()) throw new InterruptedError(`Interrupted while ${spec.purpose ?? line} was running; it was stopped.`);
    const output = String((result as { all?: unknown }).all ?? '');
    if ((result as { code?: string }).code === 'ENOENT' || (result.failed && result.exitCode === undefined)) {
      throw new EnvironmentError(`Cannot start ${spec.command}: not found.`, {
        kind: 'tool-missing',
        fix: `Install ${spec.command} or put it on PATH.`,
      });
    }
    return { exitCode: result.exitCode ?? 1, output, dryRun: false };
  }

  /** Runs and throws a StepFailedError (with the output's tail) when the command fails. */
  async mustRun(spec: ProcessSpec, fix: string): Promise<ProcessResult> {
    const r = await this.run(spec);
    if (r.exitCode !== 0) {
      const tail = r.output.split('\n').filter((l) => l.trim() !== '').slice(-25).join('\n');
      throw new StepFailedError(`${spec.purpose ?? displayCommand(spec.command, spec.args)} failed (exit ${r.exitCode}).${tail === '' ? '' : `\n${tail}`}`, {
        kind: 'command-failed',
        fix,
        detail: `command: ${displayCommand(spec.command, spec.args)} (in ${spec.cwd})`,
      });
    }
    return r;
  }
}
