import { EnvironmentError, StepFailedError } from '../core/errors.js';
import { displayCommand } from '../core/release-commands.js';
import type { Output } from '../ui/output.js';

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
  constructor(
    private readonly out: Output,
    private readonly env: NodeJS.ProcessEnv,
    readonly dryRun: boolean,
  ) {}

  async run(spec: ProcessSpec): Promise<ProcessResult> {
    const line = displayCommand(spec.command, spec.args);
    const where = `(in ${spec.cwd})`;
    if (this.dryRun && spec.mutates) {
      this.out.wouldDo(`${line} ${this.out.c.dim(where)}${spec.input === undefined ? '' : this.out.c.dim(` answering ${JSON.stringify(spec.input)}`)}`);
      return { exitCode: 0, output: '', dryRun: true };
    }
    this.out.verbose(`$ ${line} ${where}`);
    const { execa } = await import('execa');
    const env = { ...this.env, ...spec.env };
    let result;
    try {
      result = await execa(spec.command, [...spec.args], {
        cwd: spec.cwd,
        env,
        extendEnv: false,
        reject: false,
        ...(spec.interactive === true
          ? { stdio: 'inherit' as const }
          : // --verbose echoes the child's output on stderr (fd 2): stdout carries only relctl's result (--json).
            { all: true, input: spec.input ?? '', ...(this.out.verboseEnabled ? { stderr: ['pipe', 2] as const, stdout: ['pipe', 2] as const } : {}) }),
      });
    } catch (error) {
      throw new EnvironmentError(`Cannot start ${spec.command}: ${(error as Error).message}`, {
        kind: 'tool-missing',
        fix: `Install ${spec.command} or put it on PATH.`,
      });
    }
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
