/**
 * `relctl init --fleet [--org OWNER] [--repository OWNER/NAME --ref REF]` (DESIGN §13 Scale): the
 * fleet's scheduled workflow for an organisation's admin repository, and with `--org` the fleet
 * section of its relctl.config.json. Same rules as `relctl init`: nothing replaced without
 * `--force`, all files or none, identical files `unchanged`.
 */
import { UsageError, type ExitCodeValue } from '../core/errors.js';
import { fleetWorkflow, fleetWorkflowPath } from '../core/ci/fleet-workflow.js';
import { configFileName, fileOutcomes, fleetConfigText, type PlannedFile } from '../core/ci/init-files.js';
import { ownerProblem } from '../core/ci/workflow-values.js';
import type { CommandContext } from '../io/command-context.js';
import { readTexts, repositoryPlace } from '../io/ci-place.js';
import { packageVersion } from '../io/package-info.js';
import { checkProjectDir, settleFiles } from './init-shared.js';
import { fleetInitJson, fleetInitText } from './render/init.js';

/** The release's answers: the fleet workflow releases nothing. (`--yes` is accepted: there is nothing to ask, DESIGN §1.) */
const releaseFlags = [['ci', '--ci'], ['route', '--route'], ['namespace', '--namespace']] as const;

export async function initFleet(ctx: CommandContext, opts: Record<string, unknown>): Promise<ExitCodeValue> {
  const given = releaseFlags.filter(([key]) => opts[key] !== undefined).map(([, flag]) => flag);
  if (given.length > 0) throw new UsageError(`${given.join(', ')} ${given.length === 1 ? 'answers' : 'answer'} questions of the release workflows, not of --fleet.`, { kind: 'bad-option', fix: 'Run relctl init --fleet without them (the fleet workflow is GitHub Actions only).' });
  const orgs = (opts.org as string[] | undefined) ?? [];
  for (const org of orgs) {
    const why = ownerProblem(org);
    if (why !== undefined) throw new UsageError(`--org ${JSON.stringify(org)} ${why}.`, { kind: 'bad-option', fix: 'Pass the organisation as GitHub spells it, e.g. --org apereo.' });
  }
  const selection = ctx.config.fleet;
  if (orgs.length === 0 && selection?.org === undefined && selection?.repos === undefined) {
    throw new UsageError('The fleet workflow audits the fleet section of relctl.config.json, and it names no repositories.', {
      kind: 'init-answer-needed',
      fix: 'Pass --org OWNER (written to relctl.config.json), or add "fleet": {"org": [...]} or {"repos": [...]} to it.',
    });
  }
  const place = await repositoryPlace(ctx.cwd, ctx.signal);
  checkProjectDir(place);
  const relctlVersion = packageVersion();
  const source = { relctlVersion, ...(typeof opts.repository === 'string' ? { repository: opts.repository } : {}), ...(typeof opts.ref === 'string' ? { ref: opts.ref } : {}) };
  const planned: PlannedFile[] = [];
  if (orgs.length > 0) {
    const configPath = place.projectDir === '.' ? configFileName : `${place.projectDir}/${configFileName}`;
    const existing = (await readTexts(place.root, [configPath])).get(configPath);
    planned.push({ path: configPath, text: fleetConfigText(relctlVersion, existing === undefined ? undefined : (JSON.parse(existing) as Record<string, unknown>), orgs) });
  }
  planned.push({ path: fleetWorkflowPath, text: fleetWorkflow(source, place) });
  const outcomes = fileOutcomes(planned, await readTexts(place.root, planned.map((f) => f.path)), opts.force === true);
  const dryRun = opts.dryRun === true;
  return settleFiles(ctx, place.root, outcomes, dryRun, { json: () => fleetInitJson(outcomes, dryRun), text: () => fleetInitText(outcomes, dryRun, ctx.out.c) });
}
