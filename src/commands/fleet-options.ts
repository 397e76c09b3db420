/**
 * What every `relctl fleet` subcommand shares (DESIGN §13): the selection options, the host's API
 * root, the settings passed on to each repository, and the selection itself.
 */
import { collect } from './commander.js';
import { UsageError } from '../core/errors.js';
import { settingSpecs, type SettingKey } from '../core/config/settings.js';
import type { CommandContext } from '../io/command-context.js';
import { checkGithubApiUrl } from '../github/api-url.js';
import type { Command } from 'commander';
import type { Selection, SelectionFlags } from '../fleet/select-repos.js';

export const fleetFormats = ['text', 'markdown', 'junit', 'html'] as const;

export function parseJobs(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 64) throw new UsageError(`--jobs ${value} is not a whole number from 1 to 64.`, { kind: 'bad-option', fix: 'Pass --jobs N, e.g. --jobs 4.' });
  return n;
}

/** Options every fleet command selects repositories with. */
export function selectionOptions(cmd: Command): Command {
  return cmd
    .option('--repos <file>', 'a file with one repository a line: OWNER/NAME, or OWNER/NAME URL (any git URL or local path); # starts a comment')
    .option('--org <owner>', "an organisation (or user) whose repositories the host's API lists (repeatable)", collect)
    .option('--topic <topic>', 'with --org: only repositories with this topic')
    .option('--include <regex>', 'with --org: only repositories whose OWNER/NAME matches')
    .option('--exclude <regex>', 'with --org: leave out repositories whose OWNER/NAME matches')
    .option('--archived', 'with --org: include archived repositories')
    .option('--forks', 'with --org: include forks')
    .option('--only <name>', 'only this repository (OWNER/NAME, or NAME when it is unique)')
    .option('--github-url <url>', 'the repository host\'s API root (default: --github-api-url, https://api.github.com); the sandbox\'s is <sandbox>/github/api')
    .option('--yes', 'no prompts (fleet commands ask nothing; accepted for scripts that pass it to every command)');
}

/** The host's API root: --github-url, else the configured GitHub API URL. */
export function withHost(ctx: CommandContext, opts: Record<string, unknown>): CommandContext {
  if (typeof opts.githubUrl !== 'string') return ctx;
  return { ...ctx, config: { ...ctx.config, githubApiUrl: checkGithubApiUrl(opts.githubUrl) } };
}

/** The settings given as flags: they win over each repository's own relctl.config.json too. */
export function settingFlags(ctx: CommandContext): Partial<Record<SettingKey, unknown>> {
  const flags: Partial<Record<SettingKey, unknown>> = {};
  for (const spec of settingSpecs) if (ctx.configSources[spec.key] === 'flag') flags[spec.key] = ctx.config[spec.key];
  flags.githubApiUrl = ctx.config.githubApiUrl;
  return flags;
}

export async function select(ctx: CommandContext, opts: Record<string, unknown>): Promise<Selection> {
  const { selectRepos } = await import('../fleet/select-repos.js');
  let session: Awaited<ReturnType<typeof import('../github/session.js').openGithub>> | undefined;
  const selection = await selectRepos(ctx, opts as SelectionFlags, async () => {
    const { openGithub } = await import('../github/session.js');
    const { listOwnerRepos } = await import('../fleet/org-listing.js');
    session = await openGithub(ctx);
    const gh = session.gh;
    return (owner) => listOwnerRepos(gh, owner, (line) => ctx.out.info(line), ctx.signal);
  });
  await session?.close();
  return selection;
}
