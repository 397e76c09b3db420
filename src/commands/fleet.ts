/**
 * `relctl fleet list|audit` (DESIGN §13): the options, the fleet's core, the rendering.
 */
import os from 'node:os';
import path from 'node:path';
import type { Command } from 'commander';
import { Option } from './commander.js';
import { ExitCode, UsageError, failureJson } from '../core/errors.js';
import { settingSpecs, type SettingKey } from '../core/config/settings.js';
import type { CommandContext } from '../io/command-context.js';
import { checkGithubApiUrl } from '../github/api-url.js';
import type { Define } from './registry.js';
import type { SelectionFlags } from '../fleet/select-repos.js';

const formats = ['text', 'markdown', 'junit', 'html'] as const;

function parseJobs(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 64) throw new UsageError(`--jobs ${value} is not a whole number from 1 to 64.`, { kind: 'bad-option', fix: 'Pass --jobs N, e.g. --jobs 4.' });
  return n;
}

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** Options every fleet command selects repositories with. */
function selectionOptions(cmd: Command): Command {
  return cmd
    .option('--repos <file>', 'a file with one repository a line: OWNER/NAME, or OWNER/NAME URL (any git URL or local path); # starts a comment')
    .option('--org <owner>', "an organisation (or user) whose repositories the host's API lists (repeatable)", collect)
    .option('--topic <topic>', 'with --org: only repositories with this topic')
    .option('--include <regex>', 'with --org: only repositories whose OWNER/NAME matches')
    .option('--exclude <regex>', 'with --org: leave out repositories whose OWNER/NAME matches')
    .option('--archived', 'with --org: include archived repositories')
    .option('--forks', 'with --org: include forks')
    .option('--only <name>', 'only this repository (OWNER/NAME, or NAME when it is unique)')
    .option('--github-url <url>', 'the repository host\'s API root (default: --github-api-url, https://api.github.com); the sandbox\'s is <sandbox>/github/api');
}

/** The host's API root: --github-url, else the configured GitHub API URL. */
function withHost(ctx: CommandContext, opts: Record<string, unknown>): CommandContext {
  if (typeof opts.githubUrl !== 'string') return ctx;
  return { ...ctx, config: { ...ctx.config, githubApiUrl: checkGithubApiUrl(opts.githubUrl) } };
}

/** The settings given as flags: they win over each repository's own relctl.config.json too. */
function settingFlags(ctx: CommandContext): Partial<Record<SettingKey, unknown>> {
  const flags: Partial<Record<SettingKey, unknown>> = {};
  for (const spec of settingSpecs) if (ctx.configSources[spec.key] === 'flag') flags[spec.key] = ctx.config[spec.key];
  flags.githubApiUrl = ctx.config.githubApiUrl;
  return flags;
}

async function select(ctx: CommandContext, opts: Record<string, unknown>) {
  const { selectRepos } = await import('../fleet/select-repos.js');
  let session: Awaited<ReturnType<typeof import('../github/session.js').openGithub>> | undefined;
  const selection = await selectRepos(ctx, opts as SelectionFlags, async () => {
    const { openGithub } = await import('../github/session.js');
    const { listOwnerRepos } = await import('../fleet/org-listing.js');
    session = await openGithub(ctx);
    const gh = session.gh;
    return (owner) => listOwnerRepos(gh, owner);
  });
  await session?.close();
  return selection;
}

export const define: Define = (program, action) => {
  const fleet = program.command('fleet').description('every repository of an ecosystem at once: list, audit (DESIGN §13)');

  selectionOptions(fleet.command('list').description('the selected repositories (--json: [{name, url, branch}] for a CI matrix)')).action(
    action(async (ctx, opts) => {
      ctx = withHost(ctx, opts);
      const selection = await select(ctx, opts);
      const repos = selection.only === undefined ? selection.repos : [selection.only];
      const { hostUrlOf } = await import('../fleet/org-listing.js');
      const { cloneUrlOf } = await import('../fleet/workspace.js');
      const host = hostUrlOf(ctx.config.githubApiUrl);
      const list = repos.map((r) => ({ name: r.name, url: cloneUrlOf(r, host), branch: r.branch ?? null }));
      if (ctx.out.json) ctx.out.resultJson(list);
      else ctx.out.result(list.map((r) => `${r.name}  ${r.url}${r.branch === null ? '' : `  (${r.branch})`}`).join('\n'));
      return ExitCode.ok;
    }),
  );

  selectionOptions(fleet.command('audit').description('clone or fetch each repository into the workspace and audit the fleet as one graph'))
    .option('--workdir <dir>', 'the workspace of clones (default: $XDG_CACHE_HOME/relctl/fleet, else ~/.cache/relctl/fleet)')
    .option('--jobs <n>', 'repositories cloned and audited at once (default: the CPU count)', parseJobs)
    .option('--offline', 'no network: clones must exist; no public-repository lookups (lastRelease is null)')
    .addOption(new Option('--format <format>', 'report format').choices([...formats]).default('text'))
    .option('--out <file>', 'write the report (or the --json document) to this file instead of stdout')
    .action(
      action(async (ctx, opts) => {
        ctx = withHost(ctx, opts);
        if (ctx.out.json && opts.format !== 'text') {
          throw new UsageError(`--json and --format ${String(opts.format)} cannot be used together: each is one document.`, { kind: 'bad-format', fix: `Use --format ${String(opts.format)} for the report, or --json for relctl's own document.` });
        }
        const selection = await select(ctx, opts);
        const { defaultWorkdir } = await import('../fleet/workspace.js');
        const { hostUrlOf } = await import('../fleet/org-listing.js');
        const { findGithubToken } = await import('../github/token.js');
        const { auditFleet } = await import('../fleet/run-audit.js');
        const workdir = path.resolve(ctx.cwd, (opts.workdir as string | undefined) ?? ctx.config.fleet?.workdir ?? defaultWorkdir(ctx.env));
        const jobs = (opts.jobs as number | undefined) ?? ctx.config.fleet?.jobs ?? Math.max(1, os.availableParallelism());
        const offline = opts.offline === true;
        // The token only ever goes to the host's own URLs, as a header in git's environment.
        const token = offline ? undefined : await findGithubToken(ctx.env, ctx.config.githubApiUrl, ctx.out.redactor);
        const report = await auditFleet(ctx, {
          repos: selection.repos,
          ...(selection.only === undefined ? {} : { only: selection.only.name }),
          workdir,
          jobs,
          offline,
          access: { hostUrl: hostUrlOf(ctx.config.githubApiUrl), ...(token === undefined ? {} : { token: token.value }), env: ctx.env, signal: ctx.signal, log: (l) => ctx.out.verbose(l) },
          flags: settingFlags(ctx),
          onRepository: (r) => ctx.out.info(`${r.name}: ${r.verdict}${r.blocking.length === 0 ? '' : ` (${r.blocking.join(', ')})`}`),
        });
        const { renderFleet, writeFleetFile } = await import('../fleet/render/formats.js');
        const outFile = opts.out as string | undefined;
        if (ctx.out.json) {
          const doc = report.ok ? report : { ...report, error: failureJson('fleet-not-ready', `${report.summary.total - report.summary.verdicts.ready - report.summary.verdicts['not-published']} of ${report.summary.total} repositories are not ready.`, 'Fix each blocked repository (or its fixIn parent first), then audit again.') };
          if (outFile === undefined) ctx.out.resultJson(doc);
          else await writeFleetFile(ctx, path.resolve(ctx.cwd, outFile), JSON.stringify(doc, null, 2) + '\n');
        } else {
          const text = renderFleet(opts.format as (typeof formats)[number], report, ctx.out.c);
          if (outFile === undefined) ctx.out.result(text);
          else await writeFleetFile(ctx, path.resolve(ctx.cwd, outFile), text);
        }
        return report.ok ? ExitCode.ok : ExitCode.failed;
      }),
    );
};
