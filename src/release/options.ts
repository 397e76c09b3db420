import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { UsageError } from '../core/errors.js';
import type { CommandContext } from '../io/command-context.js';
import { ProcessRunner } from '../io/process-runner.js';
import { isStepId, stepIds, type ChainOptions, type StepDeps, type StepId } from './types.js';

/** Options shared by `release` and `run`. */
export function addChainOptions(cmd: Command): Command {
  return cmd
    .option('--from <step>', `start at this step (one of ${stepIds.join(', ')}), with the context the journal holds`)
    .option('--resume', 'continue after the last step the journal records as finished')
    .option('--dry-run', 'print every command and request that would change something; change nothing')
    .option('--yes', 'no prompts: accept the prep changes')
    .option('--interactive', "hand the terminal to the build tool's own prompts (Maven: no -B, no version properties)")
    .option('--offline', 'preflight without the online checks')
    .option('--wait-timeout <seconds>', 'how long status waits for the portal verdict', positiveSeconds, 600);
}

/** commander argParser for a time limit: a positive whole number of seconds. */
export function positiveSeconds(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError('must be a positive whole number of seconds.');
  return n;
}

/** The steps named on the command line (spaces or commas); an unknown name is a usage error. */
export function parseSteps(names: readonly string[]): StepId[] {
  const out: StepId[] = [];
  for (const n of names.flatMap((x) => x.split(',')).filter((x) => x !== '')) {
    if (!isStepId(n)) {
      throw new UsageError(`Unknown step "${n}": the steps are ${stepIds.join(', ')}.`, {
        kind: 'unknown-step',
        fix: `Name steps from that list, in order, e.g. relctl run verify upload status.`,
      });
    }
    out.push(n);
  }
  return out;
}

export function chainOptions(opts: Record<string, unknown>): ChainOptions {
  return {
    dryRun: opts.dryRun === true,
    yes: opts.yes === true,
    interactive: opts.interactive === true,
    restart: opts.restart === true,
    offline: opts.offline === true,
    waitTimeout: typeof opts.waitTimeout === 'number' ? opts.waitTimeout : 600,
  };
}

export function stepDeps(ctx: CommandContext, options: ChainOptions): StepDeps {
  return { ctx, options, proc: new ProcessRunner(ctx.out, ctx.env, options.dryRun, ctx.signal) };
}
