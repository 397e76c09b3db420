import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { chosenVersionsProblem, nextVersionProblem, type ChosenVersions } from '../core/chosen-versions.js';
import { UsageError } from '../core/errors.js';
import { perCommandOption } from '../core/config/settings.js';
import { releaseVersionProblem } from '../core/version.js';
import type { CommandContext } from '../io/command-context.js';
import { ProcessRunner } from '../io/process-runner.js';
import type { BudgetOptions } from './publishing-budget.js';
import { isStepId, stepIds, type ChainOptions, type StepDeps, type StepId } from './types.js';

/** The month's publishing budget (DESIGN §5a): preflight, verify, release, run and rehearse. */
export function addBudgetOptions(cmd: Command): Command {
  return cmd
    .option('--usage <file>', "the Usage Center's export (CSV, Current Month) for the organization's publishing usage this month")
    .option('--over-budget', "go on although this release exceeds the month's publishing limits");
}

export function budgetOptions(opts: Record<string, unknown>): BudgetOptions {
  return { ...(typeof opts.usage === 'string' ? { usage: opts.usage } : {}), overBudget: opts.overBudget === true };
}

/** Options shared by `release` and `run`. */
export function addChainOptions(cmd: Command): Command {
  return addBudgetOptions(cmd)
    .option('--from <step>', `start at this step (one of ${stepIds.join(', ')}), with the context the journal holds`)
    .option('--resume', 'continue after the last step the journal records as finished')
    .option('--dry-run', 'print every command and request that would change something; change nothing')
    .option('--yes', 'no prompts: accept the prep changes')
    .option('--interactive', "hand the terminal to the build tool's own prompts (Maven: no -B, no version properties)")
    .option('--offline', 'preflight without the online checks')
    .option('--release-version <X>', 'release this version instead of the one the snapshot counts to (the orphan-tag rule still applies)', releaseVersionArgument)
    .option('--next-version <Y-SNAPSHOT>', 'the development version after the release (a snapshot above it; default: the release with its last number + 1)', nextVersionArgument)
    .option('--wait-timeout <seconds>', 'how long status waits for the portal verdict', positiveSeconds, 600)
    .option(...perCommandOption('namespace'));
}

/** commander argParser for a time limit: a positive whole number of seconds. */
export function positiveSeconds(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError('must be a positive whole number of seconds.');
  return n;
}

export function releaseVersionArgument(value: string): string {
  const problem = releaseVersionProblem(value);
  if (problem !== undefined) throw new InvalidArgumentError(`${JSON.stringify(value)} is not a release version (${problem}); e.g. --release-version 2.0.0.`);
  return value;
}

export function nextVersionArgument(value: string): string {
  const problem = nextVersionProblem(value);
  if (problem !== undefined) throw new InvalidArgumentError(`${JSON.stringify(value)} is not a development version (${problem}); e.g. --next-version 2.0.1-SNAPSHOT.`);
  return value;
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

/** `--release-version` / `--next-version` as given: checked together (Y above X), and not with --interactive (the tool asks then). */
export function chosenVersions(opts: Record<string, unknown>): ChosenVersions | undefined {
  const chosen: ChosenVersions = {
    ...(typeof opts.releaseVersion === 'string' ? { release: opts.releaseVersion } : {}),
    ...(typeof opts.nextVersion === 'string' ? { next: opts.nextVersion } : {}),
  };
  if (chosen.release === undefined && chosen.next === undefined) return undefined;
  const problem = chosenVersionsProblem(chosen);
  if (problem !== undefined) throw new UsageError(problem.message, { kind: 'bad-version-option', fix: problem.fix });
  if (opts.interactive === true) {
    throw new UsageError('--release-version and --next-version cannot be combined with --interactive: the build tool asks for the versions itself then.', {
      kind: 'bad-version-option',
      fix: 'Drop --interactive to release the versions you named, or drop the version flags and answer the prompts.',
    });
  }
  return chosen;
}

/** The version flags belong to a chain that builds: anywhere else they would be silently ignored. */
export function checkVersionsApply(options: ChainOptions, steps: readonly StepId[]): void {
  if (options.versions === undefined || steps.includes('build')) return;
  throw new UsageError('--release-version and --next-version choose what the build step releases, and this chain has no build step.', {
    kind: 'bad-version-option',
    fix: 'Add build to the steps (relctl run build verify upload status), or drop the version flags.',
  });
}

export function chainOptions(opts: Record<string, unknown>): ChainOptions {
  const versions = chosenVersions(opts);
  return {
    ...(versions === undefined ? {} : { versions }),
    dryRun: opts.dryRun === true,
    yes: opts.yes === true,
    interactive: opts.interactive === true,
    restart: opts.restart === true,
    offline: opts.offline === true,
    waitTimeout: typeof opts.waitTimeout === 'number' ? opts.waitTimeout : 600,
    budget: budgetOptions(opts),
  };
}

export function stepDeps(ctx: CommandContext, options: ChainOptions): StepDeps {
  return { ctx, options, proc: new ProcessRunner(ctx.out, ctx.env, options.dryRun, ctx.signal) };
}
