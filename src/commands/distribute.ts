import { releaseVersionOption } from './release-version-option.js';
import type { Define } from './define.js';

export const define: Define = (program, action) => {
  program
    .command('distribute')
    .description("bump this component's version in the distribution repository and open a pull request")
    .addOption(releaseVersionOption())
    .option('--force', 'go on with a version the public repository does not have (an orphan, a deployment not yet visible)')
    .option('--dry-run', 'print the gradle.properties diff and what would be pushed and opened; change nothing')
    .option('--yes', 'no prompts (distribute asks nothing; accepted for scripts that pass it to every command)')
    .action(
      action(async (ctx, opts) => {
        const { runDistribute } = await import('../release/post/distribute.js');
        const result = await runDistribute(ctx, {
          dryRun: opts.dryRun === true,
          force: opts.force === true,
          ...(typeof opts.releaseVersion === 'string' ? { releaseVersion: opts.releaseVersion } : {}),
        });
        if (ctx.out.json) {
          ctx.out.resultJson({ ok: true, dryRun: opts.dryRun === true, ...result });
          return;
        }
        const pr = result.pullRequest;
        switch (result.state) {
          case 'already-open':
            ctx.out.result(`pull request #${pr!.number} for ${result.branch} is already open: ${pr!.url}`);
            break;
          case 'already-pinned':
            ctx.out.result(`${result.repository} already pins ${result.property}=${result.version}: nothing to do`);
            break;
          case 'dry-run':
            ctx.out.result(result.diff);
            break;
          default:
            ctx.out.result(`opened pull request #${pr!.number} on ${result.repository} (${result.branch}): ${pr!.url}`);
        }
      }),
    );
};
