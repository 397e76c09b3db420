import { builders, type Builder } from '../core/post-release/image-plan.js';
import { Option } from './commander.js';
import type { Define } from './registry.js';

export const define: Define = (program, action) => {
  program
    .command('image')
    .description('build the demo image, tag the version and latest, push both, check both tags have one digest')
    .option('--release-version <X.Y.Z>', "the released version (default: the journal's last release, else the newest release tag)")
    .addOption(new Option('--builder <name>', 'use this builder (default: the first that works of docker, podman, buildah)').choices(builders))
    .option('--dry-run', 'print the build, login and push commands; run none')
    .action(
      action(async (ctx, opts) => {
        const [{ ProcessRunner }, { runImage }] = await Promise.all([import('../io/process-runner.js'), import('../release/post/image.js')]);
        const proc = new ProcessRunner(ctx.out, ctx.env, opts.dryRun === true);
        const result = await runImage(ctx, proc, {
          ...(typeof opts.releaseVersion === 'string' ? { releaseVersion: opts.releaseVersion } : {}),
          ...(typeof opts.builder === 'string' ? { builder: opts.builder as Builder } : {}),
        });
        if (ctx.out.json) ctx.out.resultJson({ ok: true, dryRun: opts.dryRun === true, ...result });
        else if (result.digest === undefined) ctx.out.result(`dry run: would build and push ${result.refs.join(' and ')} with ${result.builder}`);
        else ctx.out.result(`pushed ${result.refs.join(' and ')} (${result.builder}); both are ${result.digest}`);
      }),
    );
};
