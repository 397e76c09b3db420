import { ExitCode } from '../core/errors.js';
import { findingToJson, toReport } from '../core/findings.js';
import { sectionsJson } from '../core/notes/sections.js';
import { releaseVersionOption } from './release-version-option.js';
import type { Define } from './define.js';

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

export const define: Define = (program, action) => {
  program
    .command('notes')
    .description('release notes from the history since the last published release; tracker check; the GitHub release page')
    .addOption(releaseVersionOption("the release (default: the journal's last release, else the newest release tag)"))
    .option('--since <tag>', 'start after this tag or commit instead of the last published release')
    .option('--to <ref>', 'end the range at this tag, branch or commit instead of the release tag (or HEAD)')
    .option('--output <file>', 'write the Markdown to this file (relative to the project root) instead of stdout')
    .option('--changelog <file>', 'insert a "## X.Y.Z (YYYY-MM-DD)" section with the notes at the top of this file (created if missing)')
    .option('--repo <owner/name>', 'GitHub repository of #N references and the release page (default: tracker.repo, else the origin remote)')
    .option('--publish', 'create the GitHub release for the tag with these notes (an existing one is updated only with --yes)')
    .option('--draft', 'with --publish: the release is a draft')
    .option('--prerelease', 'with --publish: the release is marked as a pre-release')
    .option('--strict', 'tracker findings are errors (exit 1) and block --publish')
    .option('--offline', 'no public-repository or tracker lookups')
    .option('--dry-run', 'show what --changelog would insert and the GitHub request --publish would make; change nothing')
    .option('--yes', 'update an existing release page without asking')
    .action(
      action(async (ctx, opts) => {
        const { buildNotes, notesHttp } = await import('../notes/build.js');
        const { checkNotesFiles, updateChangelog, writeNotesOutput } = await import('../notes/notes-files.js');
        const { trackerReport } = await import('../notes/tracker-report.js');
        const output = str(opts.output);
        const changelog = str(opts.changelog);
        const dryRun = opts.dryRun === true;
        await checkNotesFiles(ctx, output, changelog);
        const http = notesHttp(ctx);
        try {
          const notes = await buildNotes(ctx, {
            ...(str(opts.releaseVersion) === undefined ? {} : { releaseVersion: str(opts.releaseVersion)! }),
            ...(str(opts.since) === undefined ? {} : { since: str(opts.since)! }),
            ...(str(opts.to) === undefined ? {} : { to: str(opts.to)! }),
            ...(str(opts.repo) === undefined ? {} : { repo: str(opts.repo)! }),
            offline: opts.offline === true,
            strict: opts.strict === true,
          }, http);
          const report = toReport(notes.findings);
          const summary = ctx.out.json ? undefined : trackerReport(report, notes.refsChecked, ctx.out.c);
          if (summary !== undefined) ctx.out.info(summary);
          if (output !== undefined) {
            if (dryRun) ctx.out.wouldDo(`write the notes to ${output}`);
            else ctx.out.info(`notes written to ${await writeNotesOutput(ctx, output, notes.markdown)}`);
          }
          let changelogLine: number | undefined;
          if (changelog !== undefined) {
            const result = await updateChangelog(ctx, changelog, notes.version, notes.markdown, dryRun);
            changelogLine = result.plan.line;
            if (result.plan.action === 'present') ctx.out.info(`${result.file} already has a section for ${notes.version} (line ${result.plan.line}); left as it is.`);
            else if (dryRun) ctx.out.wouldDo(`insert at line ${result.plan.line} of ${result.file}:\n${result.plan.section.trimEnd()}`);
            else ctx.out.info(`${result.file}: section ${notes.version} inserted at line ${result.plan.line}`);
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
                draft: opts.draft === true,
                prerelease: opts.prerelease === true,
                yes: opts.yes === true,
                dryRun,
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
              ...(changelogLine === undefined ? {} : { changelogLine }),
              ...(request === undefined ? {} : { dryRun: true, request }),
            });
          } else if (releaseUrl !== null) ctx.out.result(releaseUrl);
          // A dry run of --output shows what it would have written.
          else if ((output === undefined || dryRun) && changelog === undefined) ctx.out.result(notes.markdown);
          return report.ok ? ExitCode.ok : ExitCode.failed;
        } finally {
          await http.close();
        }
      }),
    );
};
