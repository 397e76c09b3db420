import { plainText, type PlainTextOptions } from '../core/plain-text.js';
import { Redactor } from '../core/redact.js';
import { maskUrlCredentials } from '../core/secret-mask.js';
import { plainStyle, type Style } from './style.js';
import { inertCommands, inertLegacyCommands } from './workflow-commands.js';

/**
 * The single way commands talk to the user. stdout carries only the result (text, or one JSON
 * document with --json); all chatter goes to stderr. Colour and spinners are decided once.
 *
 * Every byte goes out through one rule (`shown`): secrets redacted, URL credentials masked, and
 * plain text (core/plain-text.ts): control and bidi characters from a file, a file name, a server
 * or history never reach the terminal, a log or a report, nor does a line a CI runner would read
 * as a workflow command (ui/workflow-commands.ts). relctl's own colours are not escape sequences
 * until that moment: the styles mark text with a per-process token no input can know.
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
    const colour = options.color && !options.json && options.colorStyle !== undefined ? options.colorStyle : undefined;
    this.c = colour === undefined ? plainStyle : this.marked(colour);
    this.stdout = options.stdout ?? process.stdout;
    this.stderr = options.stderr ?? process.stderr;
  }

  private readonly sequences: string[] = [];
  /** Set only with colour on: plain output has no tokens to look for (and no nonce to make). */
  private token: RegExp | undefined;

  /** The colour styles as tokens, turned into their escape sequences by `shown` only. */
  private marked(style: Style): Style {
    // The web crypto getter loads node's crypto only here: a plain start (CI, pipes) never does.
    const nonce = Buffer.from(globalThis.crypto.getRandomValues(new Uint8Array(8))).toString('hex');
    this.token = new RegExp(`\u0000${nonce}:(\\d+)\u0000`);
    const mark = (sequence: string): string => {
      this.sequences.push(sequence);
      return `\u0000${nonce}:${this.sequences.length - 1}\u0000`;
    };
    const wrap = (fn: (t: string) => string): ((t: string) => string) => {
      // The style's own opening and closing sequences, learnt once from a placeholder.
      const [open = '', close = ''] = fn('\u0001').split('\u0001');
      const [o, c] = [mark(open), mark(close)];
      return (t) => `${o}${t}${c}`;
    };
    return { bold: wrap(style.bold), dim: wrap(style.dim), red: wrap(style.red), green: wrap(style.green), yellow: wrap(style.yellow), cyan: wrap(style.cyan) };
  }

  /** The one output rule: secrets redacted, URL credentials masked, plain text but relctl's own colours, no workflow command. */
  shown(text: string): string {
    return inertCommands(this.plain(text, { keepCrlf: true }));
  }

  private plain(text: string, options: PlainTextOptions): string {
    const redacted = this.redactor.redact(text);
    if (this.token === undefined) return this.masked(plainText(redacted, options));
    const parts = redacted.split(this.token);
    return parts.map((p, i) => (i % 2 === 1 ? (this.sequences[Number(p)] ?? '') : this.masked(plainText(p, options)))).join('');
  }

  /**
   * A JSON document's strings under the same rule (JSON escapes C0 controls, not bidi or C1), each
   * redacted before it is serialised: escaped, a secret holding `"` or `\` would no longer match.
   * No JSON line can start with `::` (strings are quoted); a `##[` inside one is made inert.
   */
  private shownJson(value: unknown): string {
    const json = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'string' ? inertLegacyCommands(this.masked(plainText(this.redactor.redact(v), { keepCrlf: true }))) : v), 2);
    return this.redactor.redact(json);
  }

  private readonly given: string[] = [];
  /**
   * A URL whose credentials the caller chose and must get back usable (the sandbox's SMTP URL
   * with the password passed to --smtp-user; DESIGN §8: every URL of the ready document is usable
   * as given): printed as it is wherever it appears. Any other URL's credentials stay masked.
   */
  showAsGiven(url: string): void {
    if (url !== '' && !this.given.includes(url)) this.given.push(url);
  }

  /** URL credentials masked, except in the URLs shown as given. */
  private masked(text: string): string {
    if (!this.given.some((g) => text.includes(g))) return maskUrlCredentials(text);
    const escaped = this.given.map((g) => g.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    return text
      .split(new RegExp(`(${escaped.join('|')})`))
      .map((part, i) => (i % 2 === 1 ? part : maskUrlCredentials(part)))
      .join('');
  }

  private err(line: string): void {
    this.stderr.write(this.shown(line) + '\n');
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
    this.stdout.write(this.shown(text.endsWith('\n') ? text : text + '\n'));
  }
  /**
   * Workflow commands relctl means (`--format github`), one a line, their values escaped by the
   * caller (escapeData). Each line stays one line (what plain text would turn into a line break,
   * U+2028, is a space) and keeps its own leading `::`; any other line is made inert as always.
   */
  resultCommands(text: string): void {
    if (text === '') return;
    const lines = text.split('\n').map((line) => {
      const one = this.plain(line, { singleLine: true });
      return one.startsWith('::') ? inertLegacyCommands(one) : inertCommands(one);
    });
    this.stdout.write(lines.join('\n') + '\n');
  }
  /** One JSON document on stdout (only in --json mode). */
  resultJson(value: unknown): void {
    this.wroteJson = true;
    this.stdout.write(this.shownJson(value) + '\n');
  }
  /** A JSON document's text under the output rule, for a file relctl writes (`--out`). */
  documentText(value: unknown): string {
    return this.shownJson(value) + '\n';
  }
  /** A report document (SARIF, GitLab) on stdout: its strings under the output rule. */
  resultDocument(value: unknown): void {
    this.stdout.write(this.shownJson(value) + '\n');
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
    const s = ora({ text: this.shown(text), stream: this.stderr as NodeJS.WriteStream }).start();
    return {
      update: (t) => {
        s.text = this.shown(t);
      },
      succeed: (t) => s.succeed(t === undefined ? undefined : this.shown(t)),
      fail: (t) => s.fail(t === undefined ? undefined : this.shown(t)),
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
