import os from 'node:os';
import { detectPrepGoals, mavenInstall, mavenPrep, openMavenSession } from '../../build-tools/maven-release.js';
import { localRepoOfContext } from '../maven-local-repo.js';
import { detectBuildTool } from '../../io/build-tool.js';
import { changedFiles, diffText, headCommit } from '../../io/git.js';
import type { ProcessRunner } from '../../io/process-runner.js';
import { confirm } from '../prompt.js';
import { mavenTokenFor } from '../token.js';
import type { Step } from '../types.js';

export const prepCommitMessage = 'chore: pre-release prep';

/**
 * Seed 4.7 item 4 (Maven only): notice generation, license formatting, javadoc fixing; review the
 * diff; one `chore: pre-release prep` commit; then a local install. Gradle builds have no such
 * goals (the seed says to review notices and headers by hand).
 */
export const prepStep: Step = {
  id: 'prep',
  title: 'Pre-release prep',
  prompts: true,
  skip: async (rc, { ctx }) =>
    (rc.buildTool ?? (await detectBuildTool(ctx.cwd))) === 'gradle' ? 'Gradle builds: review notices and license headers by hand' : undefined,
  summary: (_rc, added) => (added.prepCommit === undefined ? 'no changes to commit; installed locally' : `committed "${prepCommitMessage}", installed locally`),
  async run(_rc, { ctx, options, proc, signing }) {
    const root = ctx.cwd;
    const goals = await detectPrepGoals(root, await localRepoOfContext(ctx));
    const token = await mavenTokenFor(ctx);
    const session = await openMavenSession(
      {
        root,
        env: ctx.env,
        ...(ctx.config.settings === undefined ? {} : { userSettings: ctx.config.settings }),
        ...(ctx.config.localRepo === undefined ? {} : { localRepo: ctx.config.localRepo }),
        ...(token === undefined ? {} : { token }),
        ...(signing?.passphrase === undefined ? {} : { gpgPassphrase: signing.passphrase }),
      },
      options.dryRun,
    );
    try {
      if (goals.length === 0) ctx.out.info('  No notice, license or javadoc plugin is configured: nothing to regenerate.');
      await mavenPrep(proc, session, root, goals);
      let prepCommit: string | undefined;
      if (options.dryRun) {
        if (goals.length > 0) ctx.out.wouldDo(`git add -A && git commit -m '${prepCommitMessage}' (only if the goals changed files, after review)`);
      } else {
        const changed = await changedFiles(root, { env: ctx.env });
        if (changed.length > 0) {
          ctx.out.info(`  The prep goals changed ${changed.length} file(s):`);
          ctx.out.info(await diffText(root, { env: ctx.env }));
          for (const f of changed) ctx.out.info(`    ${f}`);
          await confirm(ctx, options.yes, `Commit these changes as "${prepCommitMessage}"?`, 'Review the prep changes, then pass --yes to commit them.');
          await commitAll(proc, root, prepCommitMessage);
          prepCommit = await headCommit(root, { env: ctx.env });
        }
      }
      await mavenInstall(proc, session, root);
      if (ctx.config.distribution?.smoke?.snapshotInPrep === true) {
        // Seed 4.7 item 5, opted in by config: the clean quickstart with the snapshot just installed.
        // The release goes on to build: the server is stopped after the probe (a person who wants
        // to try the portal runs relctl smoke --snapshot before the release).
        const { runSmoke } = await import('../post/smoke.js');
        await runSmoke(ctx, proc, { snapshot: true, installed: true, stopAfter: true });
      }
      return prepCommit === undefined ? {} : { prepCommit };
    } finally {
      await session.dispose();
    }
  },
};

/** Stages everything (the .relctl folder ignores itself) and commits; a dry run prints it. */
async function commitAll(proc: ProcessRunner, cwd: string, message: string): Promise<void> {
  await proc.mustRun({ command: 'git', args: ['add', '-A'], cwd, mutates: true, purpose: 'git add' }, 'Check the git repository state.');
  await proc.mustRun(
    { command: 'git', args: ['commit', '-q', '-m', message], cwd, mutates: true, purpose: 'git commit' },
    'Check the git repository state (a commit hook or signing setup may have refused the commit).',
  );
}
