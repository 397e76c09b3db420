import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { parse } from 'yaml';

/**
 * Runs a composite action's `run:` steps the way the Actions runner does, without a runner: each
 * step is a bash script (`bash --noprofile --norc -eo pipefail`, the runner's `shell: bash`) with
 * the step's env, GITHUB_OUTPUT / GITHUB_PATH files, GITHUB_ACTION_PATH and RUNNER_TEMP; steps
 * stop at the first failure (the default `if: success()`), then the action's outputs are
 * evaluated from the steps' outputs. Only the expression forms action.yml uses are understood
 * (`${{ inputs.X }}` in env, `${{ steps.A.outputs.X || steps.B.outputs.X }}` in outputs); any
 * other form fails the test rather than being guessed.
 */
export interface ActionRun {
  steps: { id: string; exitCode: number; outputs: Record<string, string> }[];
  outputs: Record<string, string>;
  /** The step that failed (its exit code), or 0. */
  exitCode: number;
  stdout: string;
  stderr: string;
  githubPath: string[];
}

interface ActionStep {
  id?: string;
  run?: string;
  uses?: string;
  shell?: string;
  env?: Record<string, string>;
  'working-directory'?: string;
}
interface ActionMetadata {
  inputs?: Record<string, { default?: string }>;
  outputs?: Record<string, { value: string }>;
  runs: { using: string; steps: ActionStep[] };
}

export async function readActionMetadata(actionDir: string): Promise<ActionMetadata> {
  return parse(await readFile(path.join(actionDir, 'action.yml'), 'utf8')) as ActionMetadata;
}

export async function runCompositeAction(
  actionDir: string,
  options: { workspace: string; inputs?: Record<string, string>; env?: Record<string, string | undefined> },
): Promise<ActionRun> {
  const meta = await readActionMetadata(actionDir);
  if (meta.runs.using !== 'composite') throw new Error(`not a composite action: ${meta.runs.using}`);
  const inputs: Record<string, string> = {};
  for (const [name, spec] of Object.entries(meta.inputs ?? {})) inputs[name] = options.inputs?.[name] ?? spec.default ?? '';
  for (const name of Object.keys(options.inputs ?? {})) if (!(name in inputs)) throw new Error(`action.yml declares no input ${name}`);

  const temp = await mkdtemp(path.join(options.workspace, '..', 'runner-'));
  const runnerTemp = path.join(temp, 'temp');
  await mkdir(runnerTemp);
  const githubPathFile = path.join(temp, 'github-path');
  await writeFile(githubPathFile, '');
  const result: ActionRun = { steps: [], outputs: {}, exitCode: 0, stdout: '', stderr: '', githubPath: [] };
  const stepOutputs: Record<string, Record<string, string>> = {};

  for (const [index, step] of meta.runs.steps.entries()) {
    if (step.run === undefined) throw new Error(`step ${index}: only run: steps are simulated (uses: ${step.uses})`);
    if (step.shell !== 'bash') throw new Error(`step ${index}: shell ${step.shell}, expected bash`);
    if (step.run.includes('${{')) throw new Error(`step ${step.id ?? index}: an expression inside run: (script injection); pass it through env`);
    const id = step.id ?? `__run_${index}`;
    const outputFile = path.join(temp, `output-${index}`);
    const script = path.join(temp, `step-${index}.sh`);
    await writeFile(outputFile, '');
    await writeFile(script, step.run);
    const stepEnv: Record<string, string> = {};
    for (const [k, v] of Object.entries(step.env ?? {})) stepEnv[k] = evaluateInputs(String(v), inputs);
    const run = await execa('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], {
      cwd: step['working-directory'] === undefined ? options.workspace : path.resolve(options.workspace, evaluateInputs(step['working-directory'], inputs)),
      env: {
        ...options.env,
        CI: 'true',
        GITHUB_ACTIONS: 'true',
        GITHUB_WORKSPACE: options.workspace,
        GITHUB_ACTION_PATH: actionDir,
        GITHUB_OUTPUT: outputFile,
        GITHUB_PATH: githubPathFile,
        RUNNER_TEMP: runnerTemp,
        ...stepEnv,
      },
      reject: false,
      timeout: 300_000,
    });
    // execa drops each step's final newline; the runner's log keeps steps on their own lines.
    result.stdout += `${String(run.stdout)}\n`;
    result.stderr += `${String(run.stderr)}\n`;
    const outputs = parseOutputFile(await readFile(outputFile, 'utf8'));
    stepOutputs[id] = outputs;
    result.steps.push({ id, exitCode: run.exitCode ?? -1, outputs });
    if (run.exitCode !== 0) {
      result.exitCode = run.exitCode ?? -1;
      break;
    }
  }
  for (const [name, spec] of Object.entries(meta.outputs ?? {})) result.outputs[name] = evaluateStepOutputs(spec.value, stepOutputs);
  result.githubPath = (await readFile(githubPathFile, 'utf8')).split('\n').filter((l) => l !== '');
  return result;
}

function evaluateInputs(text: string, inputs: Record<string, string>): string {
  return text.replace(/\$\{\{(.*?)\}\}/g, (_, expr: string) => {
    const m = /^\s*inputs\.([\w-]+)\s*$/.exec(expr);
    if (m === null) throw new Error(`unsupported expression in env: ${expr}`);
    if (!(m[1]! in inputs)) throw new Error(`env refers to an undeclared input: ${m[1]}`);
    return inputs[m[1]!]!;
  });
}

function evaluateStepOutputs(text: string, steps: Record<string, Record<string, string>>): string {
  const m = /^\$\{\{(.*)\}\}$/.exec(text.trim());
  if (m === null) throw new Error(`unsupported output value: ${text}`);
  for (const term of m[1]!.split('||')) {
    const ref = /^\s*steps\.([\w-]+)\.outputs\.([\w-]+)\s*$/.exec(term);
    if (ref === null) throw new Error(`unsupported term in an output value: ${term}`);
    const value = steps[ref[1]!]?.[ref[2]!] ?? '';
    if (value !== '') return value;
  }
  return '';
}

/** GITHUB_OUTPUT lines: `name=value`, or `name<<DELIM` ... `DELIM` for several lines. */
function parseOutputFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc !== null) {
      const body: string[] = [];
      for (i++; i < lines.length && lines[i] !== heredoc[2]; i++) body.push(lines[i]!);
      out[heredoc[1]!] = body.join('\n');
    } else if (line.includes('=')) out[line.slice(0, line.indexOf('='))] = line.slice(line.indexOf('=') + 1);
  }
  return out;
}
