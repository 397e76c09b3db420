import { Redactor } from '../core/redact.js';
import { plainStyle, type Style } from './style.js';

/**
 * The single way commands talk to the user. stdout carries only the result (text, or one JSON
 * document with --json); all chatter goes to stderr. Colour and spinners are decided once.
 */
export interface OutputOptions {
  json: boolean;
  verbose: boolean;
  color: boolean;
  /** The colour styles, loaded by the caller when colour may be wanted. */
  colorStyle?: Style;
  /** Spinners need an interactive stderr, no CI and no --json/--verbose. */
  interactive: boolean;
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WritableStream;
}

export interface Spinner {
  update(text: string): void;
  succeed(text?: string): void;
  fail(text?: string): void;
  stop(): void;
}

export class Output {
  readonly redactor = new Redactor();
  readonly c: Style;
  readonly json: boolean;
  readonly verboseEnabled: boolean;
  readonly interactive: boolean;
  /** True once the one --json document is out (an error after it must not print a second). */
  wroteJson = false;
  private readonly stdout: NodeJS.WritableStream;
  private readonly stderr: NodeJS.WritableStream;

  constructor(options: OutputOptions) {
    this.json = options.json;
    this.verboseEnabled = options.verbose;
    this.interactive = options.interactive && !options.json && !options.verbose;
    this.c = options.color && !options.json && options.colorStyle !== undefined ? options.colorStyle : plainStyle;
    this.stdout = options.stdout ?? process.stdout;
    this.stderr = options.stderr ?? process.stderr;
  }

  private err(line: string): void {
    this.stderr.write(this.redactor.redact(line) + '\n');
  }

  info(message: string): void {
    this.err(message);
  }
  warn(message: string): void {
    this.err(`${this.c.yellow('warning')} ${message}`);
  }
  error(message: string): void {
    this.err(`${this.c.red('error')} ${message}`);
  }
  success(message: string): void {
    this.err(`${this.c.green('✔')} ${message}`);
  }
  /** Dry-run and verbose echo of a mutating action, release-it style `!` prefix. */
  wouldDo(message: string): void {
    this.err(`${this.c.cyan('!')} ${message}`);
  }
  verbose(message: string): void {
    if (this.verboseEnabled) this.err(this.c.dim(message));
  }

  /** The command's result on stdout. */
  result(text: string): void {
    if (text === '') return;
    this.stdout.write(this.redactor.redact(text.endsWith('\n') ? text : text + '\n'));
  }
  /** One JSON document on stdout (only in --json mode). */
  resultJson(value: unknown): void {
    this.wroteJson = true;
    this.stdout.write(this.redactor.redact(JSON.stringify(value, null, 2)) + '\n');
  }
  /**
   * The result of a dry run of a mutating command: the `!` line for what it would do, then
   * `{ok, dryRun, ...data}` with --json, else `text` (by default "dry run: would <shown>").
   */
  dryRunResult(shown: string, data: Record<string, unknown>, text = `dry run: would ${shown}`): void {
    this.wouldDo(shown);
    if (this.json) this.resultJson({ ok: true, dryRun: true, ...data });
    else this.result(text);
  }

  /** A spinner on a TTY; plain lines everywhere else (CI logs stay readable). */
  async spinner(text: string): Promise<Spinner> {
    if (!this.interactive) {
      this.info(text);
      return {
        update: (t) => this.verbose(t),
        succeed: (t) => this.success(t ?? text),
        fail: (t) => this.error(t ?? text),
        stop: () => undefined,
      };
    }
    const { default: ora } = await import('ora');
    const s = ora({ text: this.redactor.redact(text), stream: this.stderr as NodeJS.WriteStream }).start();
    return {
      update: (t) => {
        s.text = this.redactor.redact(t);
      },
      succeed: (t) => s.succeed(t === undefined ? undefined : this.redactor.redact(t)),
      fail: (t) => s.fail(t === undefined ? undefined : this.redactor.redact(t)),
      stop: () => s.stop(),
    };
  }
}

export interface Environment {
  env: NodeJS.ProcessEnv;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  stdinIsTTY: boolean;
  /** The terminal width of stderr (0 or undefined: unknown, e.g. `stty cols 0`). */
  stderrColumns?: number;
}

/**
 * Spinners redraw one line in place: only on a terminal at least one column wide, outside CI.
 * A zero-column terminal would get one line per frame (a flood).
 */
export function canSpin(e: Environment): boolean {
  return e.stderrIsTTY && !isCI(e.env) && (e.stderrColumns ?? 0) >= 1;
}

export function isCI(env: NodeJS.ProcessEnv): boolean {
  return env.CI !== undefined && env.CI !== '' && env.CI !== 'false' && env.CI !== '0';
}

/** NO_COLOR and --no-color switch colour off; FORCE_COLOR switches it on; else a TTY decides. */
export function wantsColor(flag: boolean | undefined, e: Environment): boolean {
  if (flag === false) return false;
  if (e.env.NO_COLOR !== undefined && e.env.NO_COLOR !== '') return false;
  if (e.env.FORCE_COLOR !== undefined) return e.env.FORCE_COLOR !== '0' && e.env.FORCE_COLOR !== 'false';
  return e.stderrIsTTY;
}
