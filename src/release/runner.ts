import { InterruptedError, RelctlError, UsageError } from '../core/errors.js';
import { journalPath, readJournal, updateJournal, type Journal } from '../io/journal.js';
import { settleChosenVersions } from './chosen-versions.js';
import { interruptedChain, resumeCommand } from './interrupted.js';
import { stepById } from './steps/index.js';
import { DryRunStop, isStepId, releaseStepIds, stepIds, type ChainRequest, type ReleaseContext, type StepDeps, type StepError, type StepId, type StepOutcome } from './types.js';

export interface ChainSummary {
  ok: boolean;
  dryRun: boolean;
  steps: StepOutcome[];
  context: ReleaseContext;
  error?: StepError;
}

/** The latest record per step id decides whether that step is done. */
function doneSteps(journal: Journal): Map<string, Record<string, unknown>> {
  const latest = new Map<string, { status: string; data: Record<string, unknown> }>();
  for (const s of journal.steps) latest.set(s.id, { status: s.status, data: s.data ?? {} });
  const done = new Map<string, Record<string, unknown>>();
  for (const [id, r] of latest) if (r.status === 'done') done.set(id, r.data);
  return done;
}

/** The context a resumed chain starts with: what each finished step added, in chain order. */
export function contextFromJournal(journal: Journal): ReleaseContext {
  const done = doneSteps(journal);
  const rc: ReleaseContext = {};
  for (const id of stepIds) Object.assign(rc, done.get(id) ?? {});
  if (journal.repositoryKey !== undefined) rc.repositoryKey ??= journal.repositoryKey;
  if (journal.deploymentId !== undefined) rc.deploymentId ??= journal.deploymentId;
  return rc;
}

/** Where the chain starts, or a usage error saying how to continue. */
export function startIndex(request: ChainRequest, journal: Journal): number {
  const done = doneSteps(journal);
  if (request.from !== undefined) {
    if (!isStepId(request.from) || !request.steps.includes(request.from)) {
      throw new UsageError(`--from ${request.from}: not a step of this chain.`, {
        fix: `Use one of: ${request.steps.join(', ')}.`,
      });
    }
    return request.steps.indexOf(request.from);
  }
  if (request.resume === true) {
    let last = -1;
    request.steps.forEach((id, i) => {
      if (done.has(id)) last = i;
    });
    return last + 1;
  }
  return 0;
}

function unfinished(journal: Journal): StepId | undefined {
  const done = doneSteps(journal);
  if (done.size === 0 || done.has('status')) return undefined;
  return [...releaseStepIds].reverse().find((id) => done.has(id));
}

function errorFacts(error: unknown): StepError {
  if (error instanceof RelctlError) {
    const { journal, resume } = error.data;
    return {
      code: error.kind,
      kind: error.kind,
      message: error.message,
      ...(error.fix === undefined ? {} : { fix: error.fix }),
      ...(typeof journal === 'string' ? { journal } : {}),
      ...(typeof resume === 'string' ? { resume } : {}),
    };
  }
  return { code: 'internal', kind: 'internal', message: error instanceof Error ? error.message : String(error) };
}

/**
 * Runs a chain of steps in one process with one shared context. Each finished step is recorded
 * in the journal with what it added, so `--resume` continues after the last finished step. The
 * first failure stops the chain; its error (cause + fix) propagates to the CLI, except with --json
 * where the summary document carries it.
 */
export async function runChain(chainDeps: StepDeps, request: ChainRequest): Promise<ChainSummary> {
  const deps: StepDeps = { ...chainDeps, command: request.command };
  const { ctx } = deps;
  let { options } = deps;
  const root = ctx.cwd;
  const dryRun = options.dryRun;
  let journal = await readJournal(root);

  const continuing = request.resume === true || request.from !== undefined;
  if (request.command === 'release' && !continuing) {
    const last = unfinished(journal);
    if (last !== undefined && request.restart !== true) {
      const what = journal.release === undefined ? '' : ` of ${journal.release.tag}`;
      throw new UsageError(`An unfinished release${what} is in .relctl/journal.json (last finished step: ${last}).`, {
        kind: 'unfinished-release',
        fix: 'Continue it with `relctl release --resume`, or discard it with `relctl release --restart`.',
      });
    }
    if (!dryRun && (journal.steps.length > 0 || journal.release !== undefined)) {
      // A new release: earlier step records and ids belong to the previous one; uploads stay (history).
      journal = await updateJournal(root, (j) => {
        j.steps = [];
        delete j.release;
        delete j.repositoryKey;
        delete j.deploymentId;
        delete j.chosenVersions;
      });
    }
  }

  const start = startIndex(request, journal);
  const versions = await settleChosenVersions(ctx, journal, { continuing, builds: request.steps.slice(start).includes('build'), dryRun, ...(options.versions === undefined ? {} : { given: options.versions }) });
  options = { ...options, ...(versions === undefined ? {} : { versions }) };
  deps.options = options;
  const rc: ReleaseContext = { ...request.initial, ...(request.command === 'release' && !continuing ? {} : contextFromJournal(journal)) };
  const outcomes: StepOutcome[] = request.steps.slice(0, start).map((id) => ({ id, status: 'already-done' }));
  if (start > 0 && !ctx.out.json) ctx.out.info(`Continuing after ${request.steps[start - 1]} (already done).`);

  for (let i = start; i < request.steps.length; i++) {
    const id = request.steps[i]!;
    const step = stepById(id);
    const reason = await step.skip?.(rc, deps);
    if (reason !== undefined) {
      outcomes.push({ id, status: 'skipped', reason });
      ctx.out.info(`${ctx.out.c.dim('-')} ${step.title}: skipped (${reason})`);
      continue;
    }
    const began = Date.now();
    const plain = options.interactive || step.prompts === true;
    const spinner = plain ? undefined : await ctx.out.spinner(step.title);
    if (plain) ctx.out.info(step.title);
    if (spinner === undefined) delete deps.spinner;
    else deps.spinner = spinner;
    try {
      // Interrupted between two steps: the next one does not start.
      if (ctx.signal.aborted) throw new InterruptedError();
      const added = await step.run(rc, deps);
      Object.assign(rc, added);
      const ms = Date.now() - began;
      const stopped = outcomes.find((o) => o.status === 'would-stop');
      if (dryRun && stopped !== undefined) {
        // Its plan is printed, but no tick: a real run stops before it.
        outcomes.push({ id, status: 'not-reached', stoppedAt: stopped.id });
        const line = `${step.title}: not reached (a real run stops at ${stopped.id})`;
        if (spinner !== undefined) spinner.stop();
        ctx.out.info(`${ctx.out.c.dim('-')} ${line}`);
        continue;
      }
      outcomes.push({ id, status: 'done', added, ms });
      // A dry run did nothing, so a step's usual success note ("installed", "passes") would mislead.
      const note = dryRun ? 'dry run, nothing changed' : step.summary?.(rc, added);
      const line = note === undefined ? step.title : `${step.title}: ${note}`;
      if (spinner !== undefined) spinner.succeed(line);
      else ctx.out.success(line);
      if (!dryRun) await record(root, id, 'done', added, rc);
      crashHookForTests(ctx.env, id);
    } catch (caught) {
      if (caught instanceof DryRunStop && dryRun && !ctx.signal.aborted) {
        Object.assign(rc, caught.added);
        outcomes.push({ id, status: 'would-stop', error: errorFacts(caught.error) });
        const line = `${step.title}: a real run would stop here (${caught.error.message})`;
        if (spinner !== undefined) spinner.fail(line);
        else ctx.out.error(line);
        continue;
      }
      // Ctrl-C / SIGTERM: whatever the step threw, the story is the interruption: where the
      // release stands and the exact command that continues it.
      const interrupted = ctx.signal.aborted || caught instanceof InterruptedError;
      const error = interrupted ? await interruptedChain({ request, step, rc, outcomes, deps }) : caught;
      if (!dryRun) nameTheJournal(error, root, request);
      const facts = errorFacts(error);
      outcomes.push({ id, status: 'failed', error: facts, ms: Date.now() - began });
      if (spinner !== undefined) spinner.fail(`${step.title}: failed`);
      else ctx.out.error(`${step.title}: failed`);
      if (!dryRun) await record(root, id, 'failed', {}, rc).catch(() => undefined);
      for (const rest of request.steps.slice(i + 1)) outcomes.push({ id: rest, status: 'not-run' });
      const summary: ChainSummary = { ok: false, dryRun, steps: outcomes, context: rc, error: facts };
      if (request.returnFailures === true && !interrupted) return summary;
      // With --json the summary is the one document; the CLI still reports the error on stderr
      // and sets the exit code from it.
      if (ctx.out.json) ctx.out.resultJson(summary);
      throw error;
    }
  }
  // A dry run that found where a real run would stop is not a pass (exit 1 via the summary).
  const stop = outcomes.find((s) => s.status === 'would-stop');
  if (stop !== undefined && stop.status === 'would-stop') {
    return { ok: false, dryRun, steps: outcomes, context: rc, error: { ...stop.error, message: `A real run would stop at ${stop.id}: ${stop.error.message}` } };
  }
  return { ok: true, dryRun, steps: outcomes, context: rc };
}

/**
 * A failed real run says where the journal is and the exact command that continues (the CI
 * workflow uploads .relctl/ so a person can resume): as facts of the error, so the text output
 * prints them after the fix and --json carries them.
 */
function nameTheJournal(error: unknown, root: string, request: ChainRequest): void {
  const resume = resumeCommand(request);
  if (!(error instanceof RelctlError) || resume === undefined) return;
  error.data.journal ??= journalPath(root);
  error.data.resume ??= resume;
}

async function record(root: string, id: StepId, status: 'done' | 'failed', added: Partial<ReleaseContext>, rc: ReleaseContext): Promise<void> {
  await updateJournal(root, (j) => {
    j.steps.push({ id, status, at: new Date().toISOString(), ...(status === 'done' ? { data: { ...added } } : {}) });
    if (rc.version !== undefined && rc.tag !== undefined && rc.nextVersion !== undefined && rc.buildTool !== undefined) {
      j.release = {
        version: rc.version,
        tag: rc.tag,
        nextVersion: rc.nextVersion,
        buildTool: rc.buildTool,
        ...(rc.skippedVersions !== undefined && rc.skippedVersions.length > 0 ? { skippedVersions: rc.skippedVersions } : {}),
      };
    }
    if (rc.repositoryKey !== undefined) j.repositoryKey = rc.repositoryKey;
    if (rc.deploymentId !== undefined) j.deploymentId = rc.deploymentId;
  });
}

/**
 * Test-only: RELCTL_TEST_CRASH_AFTER=<step> kills the process with SIGKILL right after that step
 * was recorded, so tests can prove `--resume` recovers from a crash at every step boundary.
 */
function crashHookForTests(env: NodeJS.ProcessEnv, id: StepId): void {
  if (env.RELCTL_TEST_CRASH_AFTER === id) process.kill(process.pid, 'SIGKILL');
}
