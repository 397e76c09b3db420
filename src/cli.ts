import { isatty } from 'node:tty';
import type { Command as CommandType } from 'commander';
import { Command, CommanderError, Help } from './commands/commander.js';
import { ExitCode, InterruptedError, OutputClosedError, RelctlError, errorJson, type ExitCodeValue } from './core/errors.js';
import { runInterruptCleanups } from './io/interrupt.js';
import { onOutputClosed, outputClosed, watchStandardStreams } from './io/closed-output.js';
import { addGlobalOptions, createContext, createOutput, type GlobalOptions } from './commands/context.js';
import { packageVersion } from './io/package-info.js';
import { bundledCommandSummary, type CommandSummary } from './io/command-summary.js';
import type { Action } from './commands/define.js';
import { commandModules, commandNameIn } from './commands/registry.js';
import { wantsColor, type Environment, type Output } from './ui/output.js';
import { loadColorStyle } from './ui/style.js';
import { plainText } from './core/plain-text.js';

/**
 * The only place that decides exit codes (DESIGN §3). Returns the code instead of exiting so
 * tests can drive the CLI in-process.
 */
export async function main(argv: string[], e: Environment): Promise<ExitCodeValue> {
  const program = new Command('relctl');
  let out: Output | undefined;
  const controller = new AbortController();
  let exitCode: ExitCodeValue = ExitCode.ok;
  // Flags are not parsed yet; the environment alone says whether colour is possible at all.
  const colorStyle = wantsColor(undefined, e) ? await loadColorStyle() : undefined;

  program
    .description('Release Java components to Maven Central through the Central Publisher Portal.')
    .version(packageVersion(), '-V, --version', 'print the version')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({
      // Usage errors quote the arguments given: plain text like everything else relctl prints.
      writeOut: (s) => process.stdout.write(plainText(s)),
      writeErr: (s) => process.stderr.write(plainText(s)),
    });
  addGlobalOptions(program);

  const wrap =
    (fn: Action) =>
    async (...args: unknown[]): Promise<void> => {
      const command = args[args.length - 1] as CommandType;
      const opts = command.opts();
      const positional = (args.slice(0, -2) as unknown[]).flat().filter((a): a is string => typeof a === 'string');
      out = createOutput(command.optsWithGlobals<GlobalOptions>(), e, colorStyle);
      const ctx = await createContext(command, out, e, controller.signal);
      const code = await fn(ctx, opts, positional);
      exitCode = (code ?? ExitCode.ok) as ExitCodeValue;
    };

  const valued = new Set(program.options.filter((o) => o.required || o.optional).map((o) => o.long!));
  const name = commandNameIn(argv, valued);
  // Only the named command's module is loaded; every module only when help or an unknown name
  // needs the full list. `relctl --version` names none and needs none.
  const versionOnly = name === undefined && argv.some((a) => a === '-V' || a === '--version');
  const only = name === undefined ? undefined : commandModules[name];
  // `relctl --help` alone lists the commands from the summary the build wrote: no module loaded.
  const summary = name === undefined && argv.length === 1 && (argv[0] === '--help' || argv[0] === '-h') ? bundledCommandSummary() : undefined;
  if (summary !== undefined) listCommands(program, summary);
  const toLoad = versionOnly || summary !== undefined ? [] : only !== undefined ? [only] : Object.values(commandModules);
  for (const load of toLoad) (await load()).define(program, wrap);

  // Ctrl-C / SIGTERM: the command winds down (children stopped, temp folders and secrets removed,
  // the state and the resume command printed), then exits 130. A command that does not wind down
  // in time, or a second Ctrl-C, runs the registered clean-ups and stops at once.
  let interruptedBy: NodeJS.Signals | undefined;
  const stopNow = (why: string, code: ExitCodeValue = ExitCode.interrupted): void => {
    process.stderr.write(`\n${why}\n`);
    void runInterruptCleanups().finally(() => process.exit(code));
  };
  const onSignal = (signal: NodeJS.Signals): void => {
    // A long-running command (relctl sandbox) that listens for the signal itself owns it: it
    // shuts down cleanly and returns its own exit code.
    if (process.listeners(signal).some((l) => l !== onSignal)) {
      controller.abort();
      return;
    }
    if (interruptedBy !== undefined) return stopNow('Interrupted again: stopping now.');
    interruptedBy = signal;
    process.stderr.write(`\nInterrupted (${signal}): stopping what is running and cleaning up...\n`);
    controller.abort(new InterruptedError());
    setTimeout(() => stopNow('Interrupted: the command did not stop within 20 s; stopped its children and removed its temp folders.'), 20_000).unref();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // A closed stdout or stderr stops the command as Ctrl-C does (DESIGN §3): it winds down, removes
  // what it started, and ends quietly; the signals above keep working meanwhile.
  const unwatchOutput = onOutputClosed((reason) => {
    controller.abort(reason);
    setTimeout(() => stopNow(`${reason.message} The command did not stop within 20 s: stopped its children and removed its temp folders.`, reason.exitCode), 20_000).unref();
  });

  const interrupted = (error?: unknown): InterruptedError =>
    error instanceof InterruptedError && error.fix !== undefined
      ? error
      : new InterruptedError(`Interrupted (${interruptedBy}): the command was stopped; nothing it started is left running.`, {
          fix: 'Run the command again when ready.',
        });

  try {
    await program.parseAsync(argv, { from: 'user' });
    if (interruptedBy !== undefined) return report(interrupted(), out ?? createOutput(program.opts<GlobalOptions>(), e, colorStyle));
    return exitCode;
  } catch (error) {
    // Whatever a command throws once its output closed comes from being stopped: 141 (or 3).
    const closed = controller.signal.reason instanceof OutputClosedError ? controller.signal.reason : undefined;
    return report(interruptedBy !== undefined ? interrupted(error) : (closed ?? error), out ?? createOutput(program.opts<GlobalOptions>(), e, colorStyle));
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    unwatchOutput();
  }
}

/** Commands that only show in the top-level help, each with the usage term its module would give. */
function listCommands(program: CommandType, summary: CommandSummary[]): void {
  const terms = new Map(summary.map((c) => [c.name, c.term]));
  for (const c of summary) program.command(c.name).description(c.description);
  program.configureHelp({
    subcommandTerm(cmd) {
      return terms.get(cmd.name()) ?? Help.prototype.subcommandTerm.call(this, cmd);
    },
  });
}

/** The top-level help's command list, for scripts/bundle.mjs to write beside the bundle. */
export async function commandSummary(): Promise<CommandSummary[]> {
  const program = new Command('relctl');
  addGlobalOptions(program);
  const none = () => async () => undefined;
  for (const load of Object.values(commandModules)) (await load()).define(program, none);
  const help = program.createHelp();
  return program.commands.map((c) => ({ name: c.name(), term: help.subcommandTerm(c), description: help.subcommandDescription(c) }));
}

function report(error: unknown, out: Output): ExitCodeValue {
  if (error instanceof CommanderError) {
    // --help and --version end through exitOverride with code 0.
    if (error.exitCode === 0) return ExitCode.ok;
    // commander printed its own message (or the usage) on stderr already.
    if (out.json) {
      const message = error.code === 'commander.help' ? 'A subcommand is needed (the usage is on stderr).' : error.message.replace(/^error: /, '');
      out.resultJson({ ok: false, error: { code: 'usage', kind: 'usage', message, fix: 'Run the command with --help for its usage.' } });
    }
    return ExitCode.usage;
  }
  if (error instanceof RelctlError) {
    // A reader that went away (`| head -1`) is no failure to tell anyone about (DESIGN §3), and a
    // failed stream is said once at the exit (runFromProcess); --json still gets its one document
    // when stdout is the stream that is left.
    if (!(error instanceof OutputClosedError)) {
      out.error(error.message);
      if (error.fix !== undefined) out.info(`${out.c.bold('fix:')} ${error.fix}`);
      for (const [key, value] of Object.entries(error.data)) {
        if (value !== undefined && value !== null) out.info(`${key}: ${String(value)}`);
      }
      if (error.detail !== undefined) out.verbose(error.detail);
    }
    if (out.json && !out.wroteJson) out.resultJson({ ok: false, error: errorJson(error) });
    return error.exitCode;
  }
  // A bug: show the stack so it can be reported.
  out.error(`internal error (this is a bug in relctl): ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  out.info('Please report it with the command you ran and the output above (remove anything private first).');
  // --json promises one document on stdout on every path, a bug included.
  if (out.json && !out.wroteJson) out.resultJson({ ok: false, error: errorJson(error) });
  return ExitCode.failed;
}

/** Entry point used by bin/relctl.js. */
export async function runFromProcess(): Promise<void> {
  watchStandardStreams();
  // A stream that failed for another reason than its reader going away (a full disk, a terminal
  // gone) lost output, even when the command had finished: said on stderr when stderr is not the
  // one, and never a success. The exit, because the failed write may be the command's last.
  process.once('exit', () => {
    const closed = outputClosed();
    if (closed === undefined || closed.readerGone) return;
    if (closed.stream === 'stdout') process.stderr.write(plainText(`error ${closed.message}\n${closed.fix === undefined ? '' : `fix: ${closed.fix}\n`}`));
    if (!process.exitCode) process.exitCode = closed.exitCode;
  });
  // An error nobody caught (an event handler's, a stray promise's) still removes what must not
  // outlive relctl (credential files, temp settings, child process groups) before the exit. A
  // second one while those clean-ups run changes nothing: the exit is already on its way.
  let crashed = false;
  const crash = (error: unknown): void => {
    if (crashed) return;
    crashed = true;
    process.stderr.write(plainText(`internal error (this is a bug in relctl): ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`));
    void runInterruptCleanups(1000).finally(() => process.exit(ExitCode.failed));
  };
  process.on('uncaughtException', crash);
  process.on('unhandledRejection', crash);
  // isatty() on the descriptors: process.stdin (and stdout, stderr) build their stream the first
  // time they are touched, a ReadStream for a file or /dev/null, whose modules cost a
  // short command more than its own work. A command that reads stdin still gets it.
  const stderrIsTTY = isatty(2);
  process.exitCode = await main(process.argv.slice(2), {
    env: process.env,
    stdoutIsTTY: isatty(1),
    stderrIsTTY,
    stdinIsTTY: isatty(0),
    ...(stderrIsTTY ? { stderrColumns: process.stderr.columns } : {}),
  });
}
