import path from 'node:path';
import type { Command } from 'commander';
import { UsageError } from '../core/errors.js';
import { settingSpecs, type SettingKey } from '../core/config/settings.js';
import { markSecretRead, secretValues } from '../io/child-env.js';
import type { CommandContext } from '../io/command-context.js';
import { askPortalForPublished } from '../io/published.js';
import { loadConfig } from '../io/config-file.js';
import { statOf } from '../io/stat-of.js';
import { Output, canSpin, isCI, wantsColor, type Environment } from '../ui/output.js';
import type { Style } from '../ui/style.js';


/** Commands that talk to GitHub with relctl's token (DESIGN §11; `run`, `release` and `rehearse` chain notes). */
const githubCommands = new Set(['notes', 'distribute', 'run', 'release', 'rehearse']);

export interface GlobalOptions {
  json?: boolean;
  verbose?: boolean;
  cwd?: string;
  color?: boolean;
}

/** Options every command accepts (declared on the program, usable after the subcommand). */
export function addGlobalOptions(program: Command): void {
  program
    .option('--json', 'print one JSON document on stdout and nothing else there')
    .option('--verbose', 'print commands, requests and details (never secrets) on stderr')
    .option('--cwd <dir>', 'project root (default: the current directory)')
    .option('--no-color', 'no colours (NO_COLOR and FORCE_COLOR are honoured too)');
  for (const spec of settingSpecs) {
    if (spec.perCommand !== true) program.option(spec.flag, `${spec.description} (env ${spec.env})`);
  }
}

/** The output object, made as early as possible so even a bad --cwd is reported properly. */
export function createOutput(globals: GlobalOptions, e: Environment, colorStyle?: Style): Output {
  const json = globals.json === true;
  return new Output({
    json,
    verbose: globals.verbose === true,
    color: wantsColor(globals.color, e),
    ...(colorStyle === undefined ? {} : { colorStyle }),
    interactive: canSpin(e),
  });
}

export async function createContext(
  command: Command,
  out: Output,
  e: Environment,
  signal: AbortSignal,
): Promise<CommandContext> {
  const globals = command.optsWithGlobals<GlobalOptions & Record<string, unknown>>();
  const cwd = path.resolve(globals.cwd ?? process.cwd());
  const info = statOf(cwd);
  if (info === undefined || !info.isDirectory()) {
    throw new UsageError(`--cwd ${globals.cwd ?? cwd}: no such directory.`, {
      fix: 'Pass the root folder of the project to release.',
    });
  }
  const flags: Partial<Record<SettingKey, unknown>> = {};
  for (const spec of settingSpecs) {
    // A per-command setting's flag counts only where declared from the table (init's own --namespace is another option).
    if (spec.perCommand === true && !command.options.some((o) => o.flags === spec.flag)) continue;
    const value = globals[spec.key];
    if (value !== undefined) flags[spec.key] = value;
  }
  // Every secret the environment holds is masked in whatever relctl prints or writes, children's
  // captured output included, before anything can print it.
  out.redactor.add(...secretValues(e.env));
  // A command that may take its GitHub token from GITHUB_TOKEN treats it as its secret from the
  // start: its first git call comes before the token is looked up.
  if (githubCommands.has(command.name()) && !e.env.RELCTL_GITHUB_TOKEN?.trim() && e.env.GITHUB_TOKEN?.trim()) markSecretRead('GITHUB_TOKEN');
  const { config, sources } = await loadConfig(cwd, flags, e.env);
  // "Published?" asks the portal when a token is at hand; loaded only when a command asks.
  askPortalForPublished(async (c, coordinates) => (await import('../portal/published.js')).portalPublishedLookup(c, coordinates));
  const ci = isCI(e.env);
  return {
    cwd,
    out,
    config,
    configSources: sources,
    env: e.env,
    canPrompt: e.stdinIsTTY && e.stderrIsTTY && !ci && !out.json,
    ci,
    signal,
  };
}
