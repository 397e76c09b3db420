import { builders, type Builder } from '../core/post-release/image-plan.js';
import { Option } from './commander.js';
import type { Define } from './define.js';
import { releaseVersionOption } from './release-version-option.js';

export const define: Define = (program, action) => {
  program
    .command('image')
    .description('build the demo image, tag the version and latest, push both, check both tags have one digest')
    .addOption(releaseVersionOption())
    .addOption(new Option('--builder <name>', 'use this builder (default: the first that works of docker, podman, buildah)').choices(builders))
    .option('--force', 'build and push even when the public repository does not have the version')
    .option('--dry-run', 'print the build, login and push commands; run none')
    .option('--yes', 'no prompts (image asks nothing; accepted for the contract of mutating commands)')
    .action(
      action(async (ctx, opts) => {
        const [{ ProcessRunner }, { runImage }] = await Promise.all([import('../io/process-runner.js'), import('../release/post/image.js')]);
        // ctx.signal: Ctrl-C / SIGTERM stops the running builder's process group at once.
        const proc = new ProcessRunner(ctx.out, ctx.env, opts.dryRun === true, ctx.signal);
        const result = await runImage(ctx, proc, {
          ...(typeof opts.releaseVersion === 'string' ? { releaseVersion: opts.releaseVersion } : {}),
          ...(typeof opts.builder === 'string' ? { builder: opts.builder as Builder } : {}),
          force: opts.force === true,
        });
        if (ctx.out.json) ctx.out.resultJson({ ok: true, dryRun: opts.dryRun === true, ...result });
        else if (result.digest === undefined) ctx.out.result(`dry run: would build and push ${result.refs.join(' and ')} with ${result.builder}`);
        else ctx.out.result(`pushed ${result.refs.join(' and ')} (${result.builder}); both are ${result.digest}`);
      }),
    );
};
