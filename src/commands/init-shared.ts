/**
 * What `relctl init` and `relctl init --fleet` share (DESIGN §12, §13): the checks of the values
 * they write into workflows (flags and the project folder), and the end of the run: the planned
 * files written all or nothing (or shown, on --dry-run), the result rendered, the exit code.
 */
import { ExitCode, UsageError, errorJson, type ExitCodeValue } from '../core/errors.js';
import type { FileOutcome } from '../core/ci/init-files.js';
import { projectDirProblem, refProblem, repositoryProblem } from '../core/ci/workflow-values.js';
import type { CommandContext } from '../io/command-context.js';
import { writeTexts, type RepositoryPlace } from '../io/ci-place.js';

/** `--repository` and `--ref` as init writes them into `uses:`: refused with why, naming the flag. */
export function checkRelctlSource(opts: Record<string, unknown>): void {
  for (const [flag, value, problem, example] of [
    ['--repository', opts.repository, repositoryProblem, 'e.g. --repository my-org/relctl'],
    ['--ref', opts.ref, refProblem, 'e.g. --ref v0.1.0, or a full commit SHA to pin'],
  ] as const) {
    const why = typeof value === 'string' ? problem(value) : undefined;
    if (why !== undefined) throw new UsageError(`${flag} ${JSON.stringify(value)} ${why}.`, { fix: `Pass ${flag} again, ${example}.` });
  }
}

/** The project folder becomes `working-directory:` and artifact paths: one GitHub would evaluate is refused. */
export function checkProjectDir(place: RepositoryPlace): void {
  const dirProblem = projectDirProblem(place.projectDir);
  if (dirProblem !== undefined) {
    throw new UsageError(`The project folder ${JSON.stringify(place.projectDir)} ${dirProblem}; relctl init does not write it into a workflow.`, {
      kind: 'init-unsafe-value',
      fix: 'Rename the folder (git mv), then run relctl init again.',
    });
  }
}

/** Any refused file stops the whole write, so the files never disagree with each other. */
function refused(outcomes: readonly FileOutcome[]): UsageError | undefined {
  const files = outcomes.filter((o) => o.status === 'refused').map((o) => o.path);
  if (files.length === 0) return undefined;
  return new UsageError(`${files.join(', ')} already ${files.length === 1 ? 'exists and differs' : 'exist and differ'} from what relctl init writes; nothing was written.`, {
    kind: 'init-file-exists',
    fix: 'Compare with relctl init --dry-run, then pass --force to replace (relctl.config.json keeps its other keys).',
  });
}

/** Writes (or, on --dry-run, shows) the files, renders the result, and says the exit code. */
export async function settleFiles(
  ctx: CommandContext,
  root: string,
  outcomes: readonly FileOutcome[],
  dryRun: boolean,
  render: { json: () => Record<string, unknown>; text: () => string },
): Promise<ExitCodeValue> {
  const refusal = refused(outcomes);
  const toWrite = outcomes.filter((o) => o.status === 'written');
  if (dryRun) for (const o of toWrite) ctx.out.wouldDo(`${o.replaced ? 'replace' : 'write'} ${o.path}`);
  else if (refusal === undefined) await writeTexts(root, toWrite);
  if (ctx.out.json) ctx.out.resultJson({ ...render.json(), ...(refusal === undefined ? {} : { ok: false, error: errorJson(refusal) }) });
  else ctx.out.result(render.text());
  if (refusal === undefined) return ExitCode.ok;
  if (ctx.out.json) return ExitCode.usage;
  throw refusal;
}
