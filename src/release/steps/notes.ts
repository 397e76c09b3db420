import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { StepFailedError } from '../../core/errors.js';
import { toReport } from '../../core/findings.js';
import { journalDirName } from '../../io/journal.js';
import { trackerReport } from '../../notes/tracker-report.js';
import type { Step } from '../types.js';
import { offeredAfterPublish } from './offer.js';

/**
 * Post-release chore (DESIGN §11, seed 4.8 step 1): the release notes from the history, the
 * tracker check (warnings only here), and the GitHub release page when a token is at hand.
 * `release` offers it only once the deployment is PUBLISHED, asking first on a terminal.
 */
export const notesStep: Step = {
  id: 'notes',
  title: 'Release notes',
  prompts: true,
  skip: (rc, deps) => offeredAfterPublish(rc, deps, 'Write the release notes and publish the GitHub release page now?', 'run relctl notes --publish'),
  summary: (_rc, added) => added.releaseUrl ?? added.notesFile,
  async run(rc, { ctx, options }) {
    const { buildNotes, notesHttp } = await import('../../notes/build.js');
    const http = notesHttp(ctx);
    try {
      const notes = await buildNotes(ctx, { ...(rc.version === undefined ? {} : { releaseVersion: rc.version }), offline: options.offline, strict: false }, http);
      const report = toReport(notes.findings);
      const summary = trackerReport(report, notes.refsChecked, ctx.out.c);
      if (summary !== undefined) ctx.out.info(summary);
      const dir = path.join(ctx.cwd, journalDirName);
      const notesFile = path.join(dir, `notes-${notes.version ?? 'unreleased'}.md`);
      if (options.dryRun) ctx.out.wouldDo(`write ${notesFile}`);
      else {
        await mkdir(dir, { recursive: true });
        await writeFile(path.join(dir, '.gitignore'), '*\n');
        await writeFile(notesFile, notes.markdown);
      }
      // The release is out already: what keeps the page from being made is said, not a failure.
      const { findGithubToken } = await import('../../github/token.js');
      const missing =
        notes.repo === undefined
          ? 'no GitHub repository is known (tracker.repo in relctl.config.json, or an origin remote)'
          : (notes.tag ?? rc.tag) === undefined
            ? 'the release has no tag here'
            : !options.dryRun && (await findGithubToken(ctx.env, ctx.config.githubApiUrl, ctx.out.redactor)) === undefined
              ? 'no GitHub token (RELCTL_GITHUB_TOKEN, GITHUB_TOKEN or gh auth token)'
              : undefined;
      if (missing !== undefined) {
        ctx.out.warn(`The release page was not made: ${missing}. The notes are in ${notesFile}; publish them with relctl notes --publish.`);
        return options.dryRun ? {} : { notesFile };
      }
      const { publishRelease } = await import('../../notes/publish.js');
      const outcome = await publishRelease(ctx, http, {
        repo: notes.repo,
        tag: notes.tag ?? rc.tag,
        name: notes.title,
        body: notes.markdown,
        draft: false,
        prerelease: false,
        yes: options.yes,
        dryRun: options.dryRun,
      }).catch((error: unknown) => {
        if (!(error instanceof StepFailedError) || error.kind !== 'tag-not-pushed') throw error;
        ctx.out.warn(`The release page was not made: ${error.message} ${error.fix ?? ''} The notes are in ${notesFile}.`);
        return undefined;
      });
      if (outcome === undefined) return options.dryRun ? {} : { notesFile };
      if (outcome.action === 'dry-run') {
        ctx.out.wouldDo(`${outcome.request.method} ${outcome.request.url} ${JSON.stringify(outcome.request.body)}`);
        return {};
      }
      ctx.out.info(`release page ${outcome.action}: ${outcome.url}`);
      return { notesFile, releaseUrl: outcome.url };
    } finally {
      await http.close();
    }
  },
};
