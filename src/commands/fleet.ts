/**
 * `relctl fleet list|audit` (DESIGN §13): the options, the fleet's core, the rendering.
 */
import os from 'node:os';
import path from 'node:path';
import { Option } from './commander.js';
import { ExitCode, UsageError, failureJson } from '../core/errors.js';
import type { Define } from './registry.js';
import { fleetFormats, parseJobs, select, selectionOptions, settingFlags, withHost } from './fleet-options.js';

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
    .addOption(new Option('--format <format>', 'report format').choices([...fleetFormats]).default('text'))
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
          const text = renderFleet(opts.format as (typeof fleetFormats)[number], report, ctx.out.c);
          if (outFile === undefined) ctx.out.result(text);
          else await writeFleetFile(ctx, path.resolve(ctx.cwd, outFile), text);
        }
        return report.ok ? ExitCode.ok : ExitCode.failed;
      }),
    );
};
