import { UsageError } from '../core/errors.js';
import type { CommandContext } from '../io/command-context.js';
import { releaseVersionOption } from './release-version-option.js';
import type { Define } from './define.js';

/** `relctl smoke --stop`: ends the server an earlier smoke test left running; nothing recorded is not an error. */
async function stopSmoke(ctx: CommandContext, dryRun: boolean): Promise<void> {
  const { readRunning, stopRunning } = await import('../release/post/smoke-running.js');
  const running = await readRunning(ctx);
  if (running === undefined) {
    if (ctx.out.json) ctx.out.resultJson({ ok: true, stopped: false, running: false });
    else ctx.out.result('No smoke-test server is recorded as running: nothing to stop.');
    return;
  }
  if (dryRun) {
    ctx.out.wouldDo(`the stop command in ${running.dir}, then wait until ${running.healthUrl} stops answering${running.worktree === undefined ? '' : ', then remove the worktree'}`);
    if (ctx.out.json) ctx.out.resultJson({ ok: true, dryRun: true, stopped: false, running: true, healthUrl: running.healthUrl, dir: running.dir });
    else ctx.out.result('dry run: nothing was stopped');
    return;
  }
  const stopped = await stopRunning(ctx, running);
  if (ctx.out.json) ctx.out.resultJson({ ok: true, stopped: true, ...stopped });
  else ctx.out.result(`Stopped the smoke-test server: ${stopped.healthUrl} no longer answers${stopped.worktreeRemoved ? `; its worktree ${stopped.dir} is removed` : ''}.`);
}

export const define: Define = (program, action) => {
  program
    .command('smoke')
    .description("the distribution's stop, clean deploy and start, then the health probe; the portal keeps running for you to try until relctl smoke --stop; --snapshot: the pre-release quickstart test")
    .option('--snapshot', "install the component's snapshot and test it in a throwaway worktree of the distribution (your clone stays untouched)")
    .option('--dir <folder>', 'the distribution folder (default: distribution.repo in relctl.config.json)')
    .addOption(releaseVersionOption("the release whose relctl distribute branch is deployed (default: the journal's last release or distribute, else the newest release tag)"))
    .option('--stop', 'end the server an earlier smoke test left running: the stop command, the health URL must stop answering, then its worktree is removed')
    .option('--stop-after', 'stop the server right after the health probe (and remove its worktree), as CI wants')
    .option('--dry-run', 'print the install, the worktree, the commands and the probe; run nothing')
    .option('--yes', 'no prompts (smoke asks nothing; accepted for scripts that pass it to every command)')
    .action(
      action(async (ctx, opts) => {
        if (opts.stop === true) {
          const others = ['snapshot', 'stopAfter', 'dir', 'releaseVersion'].filter((k) => opts[k] !== undefined);
          if (others.length > 0) throw new UsageError(`--stop ends the running smoke test; it takes no ${others.map((k) => `--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`).join(', ')}.`, { fix: 'Run relctl smoke --stop on its own.' });
          return stopSmoke(ctx, opts.dryRun === true);
        }
        const [{ ProcessRunner }, { runSmoke }] = await Promise.all([import('../io/process-runner.js'), import('../release/post/smoke.js')]);
        const proc = new ProcessRunner(ctx.out, ctx.env, opts.dryRun === true, ctx.signal);
        const result = await runSmoke(ctx, proc, {
          snapshot: opts.snapshot === true,
          ...(typeof opts.dir === 'string' ? { dir: opts.dir } : {}),
          ...(typeof opts.releaseVersion === 'string' ? { releaseVersion: opts.releaseVersion } : {}),
          stopAfter: opts.stopAfter === true,
        });
        if (ctx.out.json) ctx.out.resultJson({ ok: true, dryRun: opts.dryRun === true, ...result, leftRunning: result.running !== undefined });
        else if (opts.dryRun === true) ctx.out.result('dry run: nothing was started');
        else {
          const what = result.deployed === undefined ? '' : ` with ${result.deployed.property}=${result.deployed.version}`;
          const from = result.source.kind === 'branch' ? ` from ${result.source.branch}` : result.source.kind === 'pinned' ? ` (as ${result.source.branch} changes it)` : '';
          const after = result.stoppedAfter ? ` (stopped again${result.source.kind === 'clone' ? '' : ': its worktree is removed'})` : '';
          ctx.out.result(`smoke test passed${what}${from}: ${result.healthUrl} answered ${result.probe.last.slice(0, 80)}${after} (log: ${result.log})`);
          if (result.running !== undefined) {
            ctx.out.result(`The server keeps running for you to try: ${result.running.healthUrl} (served from ${result.running.dir}${result.running.worktree ? ', a throwaway worktree' : ''}).`);
            ctx.out.result(`Stop it with: ${result.running.stop}`);
          }
        }
      }),
    );
};
