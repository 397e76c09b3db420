import { UsageError } from '../core/errors.js';
import { ciHosts, releaseRoutes, type InitAnswers } from '../core/ci/answers.js';
import { ciFiles, configFileName, configText, fileOutcomes } from '../core/ci/init-files.js';
import { repositoryPlace, readTexts } from '../io/ci-place.js';
import { packageVersion } from '../io/package-info.js';
import { Option, collect } from './commander.js';
import { detectInitFacts, resolveAnswers } from './init-answers.js';
import { checkProjectDir, checkRelctlSource, settleFiles } from './init-shared.js';
import { initJson, initText } from './render/init.js';
import type { Define } from './define.js';

export const define: Define = (program, action) => {
  program
    .command('init')
    .description('write relctl.config.json and the CI workflows for preflight and the release; print the secrets to create')
    .addOption(new Option('--ci <host>', 'CI host (default: from the origin remote)').choices([...ciHosts]))
    .addOption(new Option('--route <route>', 'publishing route of the release (default: what preflight reads from the build)').choices([...releaseRoutes]))
    .option('--namespace <namespace>', 'the portal namespace to publish into, written as namespace (default: the config\'s; else the project\'s groupId is written and the namespace holding it is found at upload)')
    .option('--repository <owner/name>', 'take the action (and, for GitLab, the package) from this GitHub repository, e.g. a fork (default: relctl/relctl)')
    .option('--ref <ref>', 'the tag, branch or commit SHA of it to pin (default: v<this version>)')
    .option('--fleet', "write the fleet's scheduled workflow (.github/workflows/relctl-fleet.yml) for an organisation's admin repository instead")
    .option('--org <owner>', 'with --fleet: the organisation to audit, written to the fleet section of relctl.config.json (repeatable)', collect)
    .option('--force', 'replace files that differ from what init would write (a .gitlab-ci.yml init did not write is never replaced)')
    .option('--dry-run', 'print the files and what would become of each; write nothing')
    .option('--yes', 'no prompts: take what the project shows, and fail naming the flag for anything it does not')
    .action(
      action(async (ctx, opts) => {
        checkRelctlSource(opts);
        if (opts.fleet === true) {
          const { initFleet } = await import('./init-fleet.js');
          return initFleet(ctx, opts);
        }
        if (opts.org !== undefined) throw new UsageError('--org names the fleet of relctl init --fleet.', { kind: 'bad-option', fix: 'Add --fleet, or drop --org.' });
        const place = await repositoryPlace(ctx.cwd, ctx.signal);
        checkProjectDir(place);
        const facts = await detectInitFacts(ctx, place);
        const answers: InitAnswers = {
          ...(await resolveAnswers(ctx, facts, {
            ...(typeof opts.ci === 'string' ? { ci: opts.ci as InitAnswers['ci'] } : {}),
            ...(typeof opts.route === 'string' ? { route: opts.route as InitAnswers['route'] } : {}),
            ...(typeof opts.namespace === 'string' ? { namespace: opts.namespace } : {}),
            yes: opts.yes === true,
          })),
          relctlVersion: packageVersion(),
          ...(typeof opts.repository === 'string' ? { repository: opts.repository } : {}),
          ...(typeof opts.ref === 'string' ? { ref: opts.ref } : {}),
        };
        const configPath = place.projectDir === '.' ? configFileName : `${place.projectDir}/${configFileName}`;
        const existing = await readTexts(place.root, [configPath, '.gitlab-ci.yml']);
        const existingConfig = existing.get(configPath);
        const planned = [
          { path: configPath, text: configText(answers, existingConfig === undefined ? undefined : (JSON.parse(existingConfig) as Record<string, unknown>)) },
          ...ciFiles(answers, place, existing.get('.gitlab-ci.yml')),
        ];
        const outcomes = fileOutcomes(planned, await readTexts(place.root, planned.map((f) => f.path)), opts.force === true);
        const dryRun = opts.dryRun === true;
        return settleFiles(ctx, place.root, outcomes, dryRun, { json: () => initJson(answers, outcomes, dryRun), text: () => initText(answers, outcomes, dryRun, ctx.out.c) });
      }),
    );
};
