import { releaseVersionOption } from './release-version-option.js';
import type { Define } from './registry.js';

export const define: Define = (program, action) => {
  program
    .command('smoke')
    .description("the distribution's stop, clean deploy and start, then the health probe; --snapshot: the pre-release quickstart test")
    .option('--snapshot', "install the component's snapshot and test it in a throwaway worktree of the distribution (your clone stays untouched)")
    .option('--dir <folder>', 'the distribution folder (default: distribution.repo in relctl.config.json)')
    .addOption(releaseVersionOption("the release whose relctl distribute branch is deployed (default: the journal's last release or distribute, else the newest release tag)"))
    .option('--dry-run', 'print the install, the worktree, the commands and the probe; run nothing')
    .option('--yes', 'no prompts (smoke asks nothing; accepted for scripts that pass it to every command)')
    .action(
      action(async (ctx, opts) => {
        const [{ ProcessRunner }, { runSmoke }] = await Promise.all([import('../io/process-runner.js'), import('../release/post/smoke.js')]);
        const proc = new ProcessRunner(ctx.out, ctx.env, opts.dryRun === true, ctx.signal);
        const result = await runSmoke(ctx, proc, {
          snapshot: opts.snapshot === true,
          ...(typeof opts.dir === 'string' ? { dir: opts.dir } : {}),
          ...(typeof opts.releaseVersion === 'string' ? { releaseVersion: opts.releaseVersion } : {}),
        });
        if (ctx.out.json) ctx.out.resultJson({ ok: true, dryRun: opts.dryRun === true, ...result });
        else if (opts.dryRun === true) ctx.out.result('dry run: nothing was started');
        else {
          const what = result.deployed === undefined ? '' : ` with ${result.deployed.property}=${result.deployed.version}`;
          const from = result.source.kind === 'branch' ? ` from ${result.source.branch}` : result.source.kind === 'pinned' ? ` (as ${result.source.branch} changes it)` : '';
          const after = result.stoppedAfter ? ' (stopped again: its worktree is removed)' : '';
          ctx.out.result(`smoke test passed${what}${from}: ${result.healthUrl} answered ${result.probe.last.slice(0, 80)}${after} (log: ${result.log})`);
        }
      }),
    );
};
