import { ExitCode, UsageError, errorJson } from '../core/errors.js';
import { ciHosts, releaseRoutes, type InitAnswers } from '../core/ci/answers.js';
import { ciFiles, configFileName, configText, fileOutcomes, type FileOutcome } from '../core/ci/init-files.js';
import { groupIdProblem } from '../core/identifiers.js';
import { projectDirProblem, refProblem, repositoryProblem } from '../core/ci/workflow-values.js';
import { repositoryPlace, readTexts, writeTexts } from '../io/ci-place.js';
import { packageVersion } from '../io/package-info.js';
import { Option } from './commander.js';
import { detectInitFacts, resolveAnswers } from './init-answers.js';
import { initJson, initText } from './render/init.js';
import type { Define } from './define.js';

export const define: Define = (program, action) => {
  program
    .command('init')
    .description('write relctl.config.json and the CI workflows for preflight and the release; print the secrets to create')
    .addOption(new Option('--ci <host>', 'CI host (default: from the origin remote)').choices([...ciHosts]))
    .addOption(new Option('--route <route>', 'publishing route of the release (default: what preflight reads from the build)').choices([...releaseRoutes]))
    .option('--namespace <groupId>', 'namespace (root groupId) to publish into, written as groupId (default: --group-id, else the project\'s groupId)')
    .option('--repository <owner/name>', 'take the action (and, for GitLab, the package) from this GitHub repository, e.g. a fork (default: relctl/relctl)')
    .option('--ref <ref>', 'the tag, branch or commit SHA of it to pin (default: v<this version>)')
    .option('--force', 'replace files that differ from what init would write (a .gitlab-ci.yml init did not write is never replaced)')
    .option('--dry-run', 'print the files and what would become of each; write nothing')
    .option('--yes', 'no prompts: take what the project shows, and fail naming the flag for anything it does not')
    .action(
      action(async (ctx, opts) => {
        if (typeof opts.namespace === 'string' && groupIdProblem(opts.namespace) !== undefined) {
          throw new UsageError(`--namespace ${opts.namespace}: ${groupIdProblem(opts.namespace)}.`, { fix: 'Pass the namespace you verified in the portal, e.g. --namespace io.github.jane.' });
        }
        for (const [flag, value, problem, example] of [
          ['--repository', opts.repository, repositoryProblem, 'e.g. --repository my-org/relctl'],
          ['--ref', opts.ref, refProblem, 'e.g. --ref v0.1.0, or a full commit SHA to pin'],
        ] as const) {
          const why = typeof value === 'string' ? problem(value) : undefined;
          if (why !== undefined) throw new UsageError(`${flag} ${JSON.stringify(value)} ${why}.`, { fix: `Pass ${flag} again, ${example}.` });
        }
        const place = await repositoryPlace(ctx.cwd, ctx.signal);
        const dirProblem = projectDirProblem(place.projectDir);
        if (dirProblem !== undefined) {
          throw new UsageError(`The project folder ${JSON.stringify(place.projectDir)} ${dirProblem}; relctl init does not write it into a workflow.`, {
            kind: 'init-unsafe-value',
            fix: 'Rename the folder (git mv), then run relctl init again.',
          });
        }
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
        const refusal = refused(outcomes);
        const toWrite = outcomes.filter((o) => o.status === 'written');
        if (dryRun) for (const o of toWrite) ctx.out.wouldDo(`${o.replaced ? 'replace' : 'write'} ${o.path}`);
        else if (refusal === undefined) await writeTexts(place.root, toWrite);
        if (ctx.out.json) {
          ctx.out.resultJson({ ...initJson(answers, outcomes, dryRun), ...(refusal === undefined ? {} : { ok: false, error: errorJson(refusal) }) });
        } else {
          ctx.out.result(initText(answers, outcomes, dryRun, ctx.out.c));
        }
        if (refusal === undefined) return ExitCode.ok;
        if (ctx.out.json) return ExitCode.usage;
        throw refusal;
      }),
    );
};

/** Any refused file stops the whole write, so the files never disagree with each other. */
function refused(outcomes: readonly FileOutcome[]): UsageError | undefined {
  const files = outcomes.filter((o) => o.status === 'refused').map((o) => o.path);
  if (files.length === 0) return undefined;
  return new UsageError(`${files.join(', ')} already ${files.length === 1 ? 'exists and differs' : 'exist and differ'} from what relctl init writes; nothing was written.`, {
    kind: 'init-file-exists',
    fix: 'Compare with relctl init --dry-run, then pass --force to replace (relctl.config.json keeps its other keys).',
  });
}
