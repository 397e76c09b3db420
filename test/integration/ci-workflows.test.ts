/**
 * Every workflow relctl ships or writes passes actionlint (DESIGN §12): action.yml (as the
 * equivalent reusable workflow, plus a check of its metadata), examples/, the YAML blocks of
 * docs/ci.md, and what `relctl init` writes for several answers. GitLab files: parsed as YAML,
 * their jobs' structure asserted (GitLab's CI JSON schema is not vendored here).
 */
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { InitAnswers } from '../../src/core/ci/answers.js';
import { fleetWorkflow } from '../../src/core/ci/fleet-workflow.js';
import { gitlabJobs } from '../../src/core/ci/gitlab-ci.js';
import { preflightWorkflow, releaseWorkflow, type WorkflowPlace } from '../../src/core/ci/github-workflows.js';
import { packageVersion } from '../../src/io/package-info.js';
import { actionlint, compositeAsWorkflow, lintLines, relctlActionInputProblems } from '../helpers/actionlint.js';
import { repoRoot } from '../helpers/cli.js';

const actionYml = (): Promise<string> => readFile(path.join(repoRoot, 'action.yml'), 'utf8');

async function expectClean(text: string, file: string): Promise<void> {
  expect(lintLines(await actionlint(text, file)), file).toEqual([]);
  expect(relctlActionInputProblems(text, await actionYml()), file).toEqual([]);
}

/** The job keys GitLab documents (CI/CD YAML syntax reference) that these files use. */
const gitlabJobKeys = new Set(['stage', 'image', 'rules', 'variables', 'before_script', 'script', 'artifacts', 'resource_group']);

function expectGitlabStructure(text: string, file: string): void {
  const doc = parse(text) as Record<string, Record<string, unknown>>;
  expect(Object.keys(doc), file).toEqual(['relctl-preflight', 'relctl-release']);
  for (const [name, job] of Object.entries(doc)) {
    for (const key of Object.keys(job)) expect(gitlabJobKeys.has(key), `${file}: ${name}.${key}`).toBe(true);
    expect(['test', 'deploy']).toContain(job.stage);
    expect(Array.isArray(job.script) && (job.script as unknown[]).every((l) => typeof l === 'string'), `${file}: ${name}.script`).toBe(true);
    for (const rule of job.rules as Record<string, unknown>[]) {
      expect(typeof rule.if).toBe('string');
      for (const key of Object.keys(rule)) expect(['if', 'when']).toContain(key);
    }
    for (const value of Object.values(job.variables as Record<string, unknown>)) expect(typeof value).toBe('string');
  }
  const release = doc['relctl-release']!;
  expect(release.rules).toEqual([{ if: '$CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH', when: 'manual' }]);
  expect(release.variables).toMatchObject({ RELCTL_TOKEN_USERNAME: '$CENTRAL_TOKEN_USERNAME', RELCTL_TOKEN_PASSWORD: '$CENTRAL_TOKEN_PASSWORD', RELCTL_GPG_PASSPHRASE: '$GPG_PASSPHRASE' });
  expect(release.artifacts).toMatchObject({ when: 'on_failure' });
  expect(doc['relctl-preflight']!.artifacts).toMatchObject({ when: 'always', reports: { codequality: 'relctl-code-quality.json' } });
}

describe('actionlint itself', () => {
  it('reports a broken workflow (the lint can fail)', async () => {
    const broken = (await readFile(path.join(repoRoot, 'examples/github-workflows/relctl-preflight.yml'), 'utf8')).replace('steps.sarif.outputs', 'steps.nope.outputs');
    expect(lintLines(await actionlint(broken))).toEqual([expect.stringContaining('property "nope" is not defined')]);
    expect(relctlActionInputProblems(broken.replace('format: sarif', 'formats: sarif'), await actionYml())).toEqual(['job preflight: input formats is not declared in action.yml']);
  });
});

describe('action.yml', () => {
  it('its steps pass actionlint as the job of the equivalent reusable workflow', async () => {
    const text = await actionYml();
    expect(lintLines(await actionlint(compositeAsWorkflow(text), 'action.yml (as a workflow)'))).toEqual([]);
    // The equivalent is not blind: an undefined step id in an output is reported.
    const wrong = compositeAsWorkflow(text.replace('steps.run.outputs.sarif-file', 'steps.runn.outputs.sarif-file'));
    expect(lintLines(await actionlint(wrong))).toEqual([expect.stringContaining('property "runn" is not defined')]);
  });

  it('has the metadata GitHub documents for a composite action', async () => {
    const meta = parse(await actionYml()) as Record<string, any>;
    for (const key of Object.keys(meta)) expect(['name', 'author', 'description', 'inputs', 'outputs', 'runs', 'branding']).toContain(key);
    expect(typeof meta.name).toBe('string');
    expect(typeof meta.description).toBe('string');
    expect(Object.keys(meta.inputs)).toEqual(['command', 'args', 'working-directory', 'format']);
    for (const input of Object.values<Record<string, unknown>>(meta.inputs)) {
      expect(typeof input.description).toBe('string');
      for (const key of Object.keys(input)) expect(['description', 'required', 'default', 'deprecationMessage']).toContain(key);
    }
    expect(Object.keys(meta.outputs)).toEqual(['exit-code', 'sarif-file']);
    // A composite action's outputs need a value (GitHub refuses the action otherwise).
    for (const output of Object.values<Record<string, unknown>>(meta.outputs)) expect(output.value).toMatch(/^\$\{\{ .+ \}\}$/);
    expect(meta.runs.using).toBe('composite');
    for (const step of meta.runs.steps) {
      // In a composite action every run: step must name its shell.
      expect(step.shell).toBe('bash');
      expect(step.run).not.toContain('${{');
    }
    expect(['white', 'yellow', 'blue', 'green', 'orange', 'red', 'purple', 'gray-dark']).toContain(meta.branding.color);
  });
});

describe('shipped workflows', () => {
  it('examples/github-workflows pass actionlint and are what relctl init writes for examples/demo', async () => {
    const dir = path.join(repoRoot, 'examples', 'github-workflows');
    const files = (await readdir(dir)).sort();
    expect(files).toEqual(['relctl-preflight.yml', 'relctl-release.yml']);
    const answers: InitAnswers = { ci: 'github', buildTool: 'maven', route: 'staging-api', namespace: 'org.example.relctl', relctlVersion: packageVersion() };
    const place = { projectDir: '.', defaultBranch: 'main' };
    const expected: Record<string, string> = { 'relctl-preflight.yml': preflightWorkflow(answers, place), 'relctl-release.yml': releaseWorkflow(answers, place) };
    for (const file of files) {
      const text = await readFile(path.join(dir, file), 'utf8');
      await expectClean(text, `examples/github-workflows/${file}`);
      expect(text, `examples/github-workflows/${file} is out of date: npm run build && node scripts/write-ci-examples.mjs`).toBe(expected[file]);
    }
    const gitlab = await readFile(path.join(repoRoot, 'examples', 'gitlab-ci', '.gitlab-ci.yml'), 'utf8');
    expectGitlabStructure(gitlab, 'examples/gitlab-ci/.gitlab-ci.yml');
    expect(gitlab, 'examples/gitlab-ci/.gitlab-ci.yml is out of date: npm run build && node scripts/write-ci-examples.mjs').toBe(gitlabJobs({ ...answers, ci: 'gitlab' }, place));
  });

  it('the YAML blocks of docs/ci.md: workflows pass actionlint, GitLab jobs have their structure', async () => {
    const doc = await readFile(path.join(repoRoot, 'docs', 'ci.md'), 'utf8');
    const blocks = [...doc.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!);
    expect(blocks.length).toBe(3);
    let workflows = 0;
    for (const [i, block] of blocks.entries()) {
      if (/^jobs:/m.test(block)) {
        workflows++;
        await expectClean(block, `docs/ci.md block ${i + 1}`);
      } else expectGitlabStructure(block, `docs/ci.md block ${i + 1}`);
    }
    expect(workflows).toBe(2);
    // The page shows exactly the example files, so the two cannot drift apart.
    const examples = ['examples/github-workflows/relctl-preflight.yml', 'examples/github-workflows/relctl-release.yml', 'examples/gitlab-ci/.gitlab-ci.yml'];
    expect(blocks).toEqual(await Promise.all(examples.map((f) => readFile(path.join(repoRoot, f), 'utf8'))));
  });
});

describe('what relctl init writes', () => {
  const combos: [string, Omit<InitAnswers, 'relctlVersion' | 'ci'>, WorkflowPlace][] = [
    ['maven, staging-api, root', { buildTool: 'maven', route: 'staging-api', namespace: 'io.github.jane' }, { projectDir: '.', defaultBranch: 'main' }],
    ['gradle, portal-plugin, no namespace, sub-folder', { buildTool: 'gradle', route: 'portal-plugin' }, { projectDir: 'libs/my lib', defaultBranch: 'master' }],
    ['maven, portal-plugin, odd branch name', { buildTool: 'maven', route: 'portal-plugin', namespace: 'org.example' }, { projectDir: 'java', defaultBranch: 'release/1.x' }],
    ['maven, nexus-staging, no namespace', { buildTool: 'maven', route: 'nexus-staging' }, { projectDir: '.', defaultBranch: 'master' }],
  ];
  it.each(combos)('%s: both GitHub workflows pass actionlint; the GitLab jobs have their structure', async (_, answers, place) => {
    const a: InitAnswers = { ...answers, ci: 'github', relctlVersion: packageVersion() };
    // The release workflow says how this route reaches the portal.
    expect(releaseWorkflow(a, place)).toContain({ 'staging-api': 'through the staging API', 'portal-plugin': 'through the Publisher API', 'nexus-staging': 'nexus-staging-maven-plugin stage and close' }[a.route]);
    await expectClean(preflightWorkflow(a, place), '.github/workflows/relctl-preflight.yml');
    await expectClean(releaseWorkflow(a, place), '.github/workflows/relctl-release.yml');
    const pre = parse(preflightWorkflow(a, place)) as { on: { push: { branches: string[] } }; jobs: { preflight: { steps: { with?: Record<string, string> }[] } } };
    expect(pre.on.push.branches).toEqual([place.defaultBranch]);
    const relctlSteps = pre.jobs.preflight.steps.filter((s) => s.with?.command === 'preflight');
    expect(relctlSteps.map((s) => s.with?.['working-directory'])).toEqual(place.projectDir === '.' ? [undefined, undefined] : [place.projectDir, place.projectDir]);
    const gitlab = gitlabJobs({ ...a, ci: 'gitlab' }, place);
    expectGitlabStructure(gitlab, '.gitlab-ci.yml');
    const script = (parse(gitlab) as Record<string, { script: string[] }>)['relctl-release']!.script.at(-1)!;
    expect(script).toContain(place.projectDir === '.' ? 'relctl release --yes' : `--cwd ${place.projectDir.includes(' ') ? `'${place.projectDir}'` : place.projectDir}`);
  });
});

describe('values relctl init writes into workflows mean themselves', () => {
  it('a default branch "!x" or "a+b" is that branch, not a negated or repeated pattern; a project folder "!lib" is not an exclusion', async () => {
    const a: InitAnswers = { ci: 'github', buildTool: 'maven', route: 'portal-plugin', relctlVersion: packageVersion() };
    for (const branch of ['!x', 'fix+1', '!a+b']) {
      const text = preflightWorkflow(a, { projectDir: '.', defaultBranch: branch });
      await expectClean(text, `branch ${branch}`);
      const pre = parse(text) as { on: { push: { branches: string[] } } };
      const [filter] = pre.on.push.branches;
      expect(filter!.startsWith('!'), branch).toBe(false);
      // GitHub's escape: a backslash before each special character; unescaped, it is the name.
      expect(filter!.replace(/\\(.)/g, '$1')).toBe(branch);
      expect(filter).not.toMatch(/(?<!\\)[+!]/);
    }
    const release = releaseWorkflow(a, { projectDir: '!lib', defaultBranch: 'main' });
    await expectClean(release, 'project folder !lib');
    const paths = (parse(release) as { jobs: { release: { steps: { with?: Record<string, string> }[] } } }).jobs.release.steps.find((s) => s.with?.name === 'relctl-journal')!.with!.path!;
    expect(paths.split('\n').filter((l) => l !== '')).toEqual(['./!lib/.relctl/', './!lib/release.properties']);
  });

  it('--repository and --ref: the action and the GitLab package come from that fork and ref', async () => {
    const sha = '0123456789abcdef0123456789abcdef01234567';
    const a: InitAnswers = { ci: 'github', buildTool: 'maven', route: 'portal-plugin', relctlVersion: packageVersion(), repository: 'my-org/relctl-fork', ref: sha };
    const place = { projectDir: '.', defaultBranch: 'main' };
    for (const text of [preflightWorkflow(a, place), releaseWorkflow(a, place)]) {
      expect(text).toContain(`uses: my-org/relctl-fork@${sha}`);
      expect(text).not.toContain('relctl/relctl@');
      await expectClean(text, 'fork');
    }
    expect(gitlabJobs({ ...a, ci: 'gitlab' }, place)).toContain(`"git+https://github.com/my-org/relctl-fork.git#${sha}"`);
  });
});

describe('the fleet workflow relctl init --fleet writes', () => {
  it.each(['.', 'admin', 'fleet admin', '!lib'])('project folder %s: passes actionlint; every relctl command it runs is one the action accepts', async (projectDir) => {
    const text = fleetWorkflow({ relctlVersion: packageVersion() }, { projectDir });
    await expectClean(text, '.github/workflows/relctl-fleet.yml');
    // The action's guard lists the commands it runs (action.yml, `case "${command_words[0]:-}"`).
    const guard = /\n\s*preflight\|[a-z|]+\) ;;/.exec(await actionYml())![0].trim().replace(/\) ;;$/, '').split('|');
    const workflow = parse(text) as { jobs: Record<string, { steps: { uses?: string; with?: Record<string, string> }[] }> };
    const commands = Object.values(workflow.jobs).flatMap((j) => j.steps.filter((s) => s.uses?.startsWith('relctl/relctl@')).map((s) => s.with!.command!));
    expect(commands).toEqual(['fleet list', 'fleet audit', 'fleet report']);
    for (const command of commands) expect(guard).toContain(command.split(' ')[0]);
    const paths = Object.values(workflow.jobs).flatMap((j) => j.steps.map((s) => s.with?.path).filter((p): p is string => p !== undefined));
    for (const p of paths) expect(p.startsWith('!'), p).toBe(false);
  });
});
