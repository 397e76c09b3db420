import { UsageError } from '../core/errors.js';
import { addChainOptions, chainOptions, checkVersionsApply, parseSteps } from '../release/options.js';
import { renderSummary } from '../release/render.js';
import { runChain } from '../release/runner.js';
import { withChainDeps } from '../release/unattended.js';
import { stepIds } from '../release/types.js';
import type { Define } from './define.js';

export const define: Define = (program, action) => {
  addChainOptions(
    program
      .command('run')
      .description('run any chain of steps in one process with one shared context, e.g. relctl run verify upload status')
      .argument('<steps...>', `steps in order: ${stepIds.join(', ')}`),
  ).action(
    action(async (ctx, opts, args) => {
      const steps = parseSteps(args);
      if (steps.length === 0) throw new UsageError('No step named.', { fix: `Name steps to run: ${stepIds.join(', ')}.` });
      if (opts.resume === true && opts.from !== undefined) {
        throw new UsageError('--resume and --from cannot be combined.', { fix: 'Pass one of them.' });
      }
      const options = chainOptions(opts);
      checkVersionsApply(options, steps);
      const summary = await withChainDeps(ctx, options, steps, (deps) =>
        runChain(deps, {
          command: 'run',
          steps,
          resume: opts.resume === true,
          ...(typeof opts.from === 'string' ? { from: opts.from } : {}),
        }),
      );
      return renderSummary(ctx, summary, `relctl run ${steps.join(' ')}`);
    }),
  );
};
