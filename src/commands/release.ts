import { UsageError } from '../core/errors.js';
import { addChainOptions, chainOptions } from '../release/options.js';
import { renderSummary } from '../release/render.js';
import { runChain } from '../release/runner.js';
import { withChainDeps } from '../release/unattended.js';
import { stepIds } from '../release/types.js';
import type { Define } from './define.js';

export const define: Define = (program, action) => {
  addChainOptions(
    program
      .command('release')
      .description(`the whole release as resumable steps: ${stepIds.join(' → ')}`)
      .option('--restart', 'discard an unfinished release recorded in the journal and start over'),
  ).action(
    action(async (ctx, opts) => {
      if (opts.resume === true && opts.from !== undefined) {
        throw new UsageError('--resume and --from cannot be combined.', { fix: 'Pass one of them: --resume continues after the last finished step.' });
      }
      const options = chainOptions(opts);
      const summary = await withChainDeps(ctx, options, stepIds, (deps) =>
        runChain(deps, {
          command: 'release',
          steps: stepIds,
          resume: opts.resume === true,
          restart: opts.restart === true,
          ...(typeof opts.from === 'string' ? { from: opts.from } : {}),
        }),
      );
      const rc = summary.context;
      return renderSummary(ctx, summary, `Release of ${rc.groupId ?? '?'}:${rc.artifactId ?? '?'} ${rc.version ?? ''}`.trimEnd());
    }),
  );
};
