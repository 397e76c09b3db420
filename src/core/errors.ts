/**
 * The one error model. Every failure a user can meet is one of these classes; `src/cli.ts`
 * is the only place that turns them into exit codes (DESIGN §3).
 *
 * `message` is the cause, `fix` the exact next step. `detail` is shown only with --verbose
 * and must never hold a secret (callers redact before they construct an error).
 */
export const ExitCode = {
  ok: 0,
  failed: 1,
  usage: 2,
  environment: 3,
  interrupted: 130,
  /** 128 + SIGPIPE: what git and other Unix tools exit with when their reader went away. */
  outputClosed: 141,
} as const;
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

export interface ErrorOptions {
  /** The next step, one sentence. */
  fix?: string;
  /** Extra context for --verbose. Never a secret. */
  detail?: string;
  /** Machine-readable facts to carry into --json output (deployment id, repository key, ...). */
  data?: Record<string, unknown>;
  cause?: unknown;
}

export abstract class RelctlError extends Error {
  abstract readonly exitCode: ExitCodeValue;
  /** Stable kebab-case identifier for --json consumers. */
  abstract readonly kind: string;
  /** The public name of `kind` in --json (DESIGN §3 `error.code`). */
  get code(): string {
    return this.kind;
  }
  readonly fix: string | undefined;
  readonly detail: string | undefined;
  readonly data: Record<string, unknown>;

  constructor(message: string, options: ErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.fix = options.fix;
    this.detail = options.detail;
    this.data = options.data ?? {};
  }
}

/** Bad flags, bad configuration, a project relctl cannot work on (exit 2). */
export class UsageError extends RelctlError {
  readonly exitCode = ExitCode.usage;
  readonly kind: string;
  constructor(message: string, options: ErrorOptions & { kind?: string } = {}) {
    super(message, options);
    this.kind = options.kind ?? 'usage';
  }
}

/** A step or a remote operation failed for a reason the user must fix (exit 1). */
export class StepFailedError extends RelctlError {
  readonly exitCode = ExitCode.failed;
  readonly kind: string;
  constructor(message: string, options: ErrorOptions & { kind?: string } = {}) {
    super(message, options);
    this.kind = options.kind ?? 'step-failed';
  }
}

/** Tool missing, network down, 5xx, credentials refused (exit 3). */
export class EnvironmentError extends RelctlError {
  readonly exitCode = ExitCode.environment;
  readonly kind: string;
  constructor(message: string, options: ErrorOptions & { kind?: string } = {}) {
    super(message, options);
    this.kind = options.kind ?? 'environment';
  }
}

/** Ctrl-C or SIGTERM (exit 130). */
export class InterruptedError extends RelctlError {
  readonly exitCode = ExitCode.interrupted;
  readonly kind = 'interrupted';
  constructor(message = 'Interrupted.', options: ErrorOptions = {}) {
    super(message, options);
  }
}

/**
 * stdout or stderr can no longer be written: its reader went away (`relctl ... | head -1`, a log
 * reader that died; exit 141 as git's, and nothing to report: DESIGN §3) or the write failed (a
 * full disk, a terminal gone; exit 3, said on the other stream). Either stops the command as Ctrl-C does.
 */
export class OutputClosedError extends RelctlError {
  readonly exitCode: ExitCodeValue;
  readonly kind = 'output-closed';
  readonly readerGone: boolean;
  constructor(
    readonly stream: 'stdout' | 'stderr',
    code: string | undefined,
  ) {
    const readerGone = code === 'EPIPE' || code === 'ECONNRESET';
    super(readerGone ? `${stream} was closed.` : `Cannot write to ${stream} (${code ?? 'unknown error'}): what relctl printed there is incomplete.`, {
      fix: readerGone ? "Keep the reader of relctl's output open until relctl ends." : `Check where ${stream} goes (a full disk, a terminal that went away).`,
    });
    this.readerGone = readerGone;
    this.exitCode = readerGone ? ExitCode.outputClosed : ExitCode.environment;
  }
}

/**
 * The `error` object of a --json failure document (DESIGN §3): `code`, `message`, `fix`, then the
 * facts the error carries (deployment id, repository key, ...). `kind` repeats `code` for
 * scripts written against earlier versions.
 */
export function errorJson(error: unknown): Record<string, unknown> {
  if (error instanceof RelctlError) {
    return { code: error.kind, kind: error.kind, message: error.message, ...(error.fix === undefined ? {} : { fix: error.fix }), ...error.data };
  }
  return {
    code: 'internal',
    kind: 'internal',
    message: error instanceof Error ? error.message : String(error),
    fix: 'This is a bug in relctl: report it with the command you ran and its output (remove anything private first).',
  };
}

/** The `error` object of a check document that failed (findings carry the details). */
export function failureJson(code: string, message: string, fix: string): Record<string, unknown> {
  return { code, kind: code, message, fix };
}

export function isRelctlError(error: unknown): error is RelctlError {
  return error instanceof RelctlError;
}
