import type { Define } from './registry.js';

export const define: Define = (program, action) => {
  program
    .command('smoke')
    .description("the distribution's stop, clean deploy and start, then the health probe; --snapshot: the pre-release quickstart test")
    .option('--snapshot', "install the component's snapshot and test it in a throwaway worktree of the distribution (your clone stays untouched)")
    .option('--dir <folder>', 'the distribution folder (default: distribution.repo in relctl.config.json)')
    .option('--dry-run', 'print the commands and the probe; run nothing')
    .action(
      action(async (ctx, opts) => {
        const [{ ProcessRunner }, { runSmoke }] = await Promise.all([import('../io/process-runner.js'), import('../release/post/smoke.js')]);
        const proc = new ProcessRunner(ctx.out, ctx.env, opts.dryRun === true);
        const result = await runSmoke(ctx, proc, { snapshot: opts.snapshot === true, ...(typeof opts.dir === 'string' ? { dir: opts.dir } : {}) });
        if (ctx.out.json) ctx.out.resultJson({ ok: true, dryRun: opts.dryRun === true, ...result });
        else if (opts.dryRun === true) ctx.out.result('dry run: nothing was started');
        else {
          const what = result.snapshot === undefined ? '' : ` with ${result.snapshot.property}=${result.snapshot.version}`;
          ctx.out.result(`smoke test passed${what}: ${result.healthUrl} answered ${result.probe.last.slice(0, 80)} (log: ${result.log})`);
        }
      }),
    );
};
