import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ExitCode, UsageError } from '../core/errors.js';
import { findingToJson, toReport } from '../core/findings.js';
import { sectionsJson } from '../core/notes/sections.js';
import { findingsText } from '../ui/render/findings.js';
import type { Define } from './registry.js';

export const define: Define = (program, action) => {
  program
    .command('notes')
    .description('release notes from the history since the last published release; tracker check; the GitHub release page')
    .option('--release-version <X.Y.Z>', "the release (default: the journal's last release, else the newest release tag)")
    .option('--since <tag>', 'start after this tag or commit instead of the last published release')
    .option('--output <file>', 'write the Markdown to this file (relative to the project root) instead of stdout')
    .option('--repo <owner/name>', 'GitHub repository of #N references and the release page (default: tracker.repo, else the origin remote)')
    .option('--publish', 'create the GitHub release for the tag with these notes (an existing one is updated only with --yes)')
    .option('--strict', 'tracker findings are errors (exit 1) and block --publish')
    .option('--offline', 'no public-repository or tracker lookups')
    .option('--dry-run', 'show the GitHub request --publish would make; change nothing')
    .option('--yes', 'update an existing release page without asking')
    .action(
      action(async (ctx, opts) => {
        const { buildNotes, notesHttp } = await import('../notes/build.js');
        const http = notesHttp(ctx);
        try {
          const notes = await buildNotes(ctx, {
            ...(typeof opts.releaseVersion === 'string' ? { releaseVersion: opts.releaseVersion } : {}),
            ...(typeof opts.since === 'string' ? { since: opts.since } : {}),
            ...(typeof opts.repo === 'string' ? { repo: opts.repo } : {}),
            offline: opts.offline === true,
            strict: opts.strict === true,
          }, http);
          const report = toReport(notes.findings);
          if (!ctx.out.json && report.findings.length > 0) ctx.out.info(findingsText(report, ctx.out.c, 'tracker check'));
          if (typeof opts.output === 'string') {
            const file = path.resolve(ctx.cwd, opts.output);
            await writeFile(file, notes.markdown).catch((error: NodeJS.ErrnoException) => {
              throw new UsageError(`--output ${opts.output as string}: cannot write (${error.code ?? error.message}).`, { fix: 'Name a file in a folder that exists and is writable.' });
            });
            ctx.out.info(`notes written to ${file}`);
          }
          let releaseUrl: string | null = null;
          let request: unknown;
          if (opts.publish === true) {
            if (!report.ok) {
              ctx.out.error('The tracker check failed (--strict); the release page was not touched.');
            } else {
              const { publishRelease } = await import('../notes/publish.js');
              const outcome = await publishRelease(ctx, http, {
                repo: notes.repo,
                tag: notes.tag,
                name: notes.title,
                body: notes.markdown,
                yes: opts.yes === true,
                dryRun: opts.dryRun === true,
              });
              if (outcome.action === 'dry-run') {
                request = outcome.request;
                ctx.out.wouldDo(`${outcome.request.method} ${outcome.request.url} ${JSON.stringify(outcome.request.body)}`);
              } else {
                releaseUrl = outcome.url;
                ctx.out.success(`release page ${outcome.action}: ${outcome.url}`);
              }
            }
          }
          if (ctx.out.json) {
            ctx.out.resultJson({
              ok: report.ok,
              version: notes.version ?? null,
              previous: notes.previous ?? null,
              skipped: notes.skipped,
              sections: sectionsJson(notes.sections),
              findings: report.findings.map(findingToJson),
              markdown: notes.markdown,
              releaseUrl,
              ...(request === undefined ? {} : { dryRun: true, request }),
            });
          } else if (opts.publish === true) {
            if (releaseUrl !== null) ctx.out.result(releaseUrl);
            else if (typeof opts.output !== 'string') ctx.out.result(notes.markdown);
          } else if (typeof opts.output !== 'string') {
            ctx.out.result(notes.markdown);
          }
          return report.ok ? ExitCode.ok : ExitCode.failed;
        } finally {
          await http.close();
        }
      }),
    );
};
