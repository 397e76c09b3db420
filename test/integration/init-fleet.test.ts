/**
 * `relctl init --fleet` (DESIGN §13 Scale) through the built CLI: the scheduled fleet workflow and
 * the config's fleet section, init's rules (unchanged, refused, --force, --dry-run), the workflow
 * linted, its jobs wired (list → matrix → audit artifacts → report), and the matrix step run for
 * real on what `relctl fleet list --json --out` writes.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { execa } from 'execa';
import { parse } from 'yaml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { actionlint, lintLines, relctlActionInputProblems } from '../helpers/actionlint.js';
import { repoRoot, runCli } from '../helpers/cli.js';
import { git, gitRepo, tempDir, type TempDir } from '../helpers/temp.js';

interface Step {
  id?: string;
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  'continue-on-error'?: boolean;
  'working-directory'?: string;
  with?: Record<string, string>;
  env?: Record<string, string>;
}
interface Job {
  needs?: string | string[];
  if?: string;
  outputs?: Record<string, string>;
  strategy?: { 'fail-fast': boolean; 'max-parallel': string; matrix: Record<string, string> };
  permissions?: Record<string, string>;
  steps: Step[];
}
interface Workflow {
  on: { schedule: { cron: string }[]; workflow_dispatch: { inputs: Record<string, { type: string; default: string; options?: string[] }> } };
  permissions: Record<string, string>;
  env: Record<string, string>;
  jobs: Record<string, Job>;
}

let temp: TempDir;
let home: string;
let root: string;
beforeEach(async () => {
  temp = await tempDir('relctl-init-fleet-');
  home = path.join(temp.path, 'home');
  await mkdir(home);
  root = path.join(temp.path, 'admin');
  await gitRepo(root, home, { 'README.md': '# The fleet\n' });
  await git(root, home, 'remote', 'add', 'origin', 'https://github.com/acme/admin.git');
});
afterEach(async () => temp[Symbol.asyncDispose]());

const init = (cwd: string, ...args: string[]) => runCli(['init', '--fleet', ...args], { cwd, home });
const file = '.github/workflows/relctl-fleet.yml';
const read = (rel: string, base = root) => readFile(path.join(base, rel), 'utf8');
const stepOf = (job: Job, id: string): Step => job.steps.find((s) => s.id === id)!;

describe('relctl init --fleet', () => {
  it('writes the workflow and the fleet section, passes actionlint, and is idempotent', async () => {
    const first = await init(root, '--org', 'acme');
    expect(first.exitCode, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^written {2}relctl\.config\.json$/m);
    expect(first.stdout).toMatch(/^written {2}\.github\/workflows\/relctl-fleet\.yml$/m);
    expect(first.stdout).toMatch(/^ {2}RELCTL_GITHUB_TOKEN {2}/m);
    const config = JSON.parse(await read('relctl.config.json')) as Record<string, unknown>;
    expect(config.fleet).toEqual({ org: ['acme'] });
    const ajv = new Ajv2020({ allErrors: true });
    (addFormats as unknown as (a: Ajv2020) => void)(ajv);
    expect(ajv.validate(JSON.parse(await readFile(path.join(repoRoot, 'schema', 'relctl.config.schema.json'), 'utf8')) as object, config), JSON.stringify(ajv.errors)).toBe(true);

    const text = await read(file);
    expect(text).toMatch(/^# Written by relctl init/);
    expect(lintLines(await actionlint(text, file))).toEqual([]);
    expect(relctlActionInputProblems(text, await readFile(path.join(repoRoot, 'action.yml'), 'utf8'))).toEqual([]);

    const again = await init(root, '--org', 'acme', '--json');
    expect(again.exitCode).toBe(0);
    expect((JSON.parse(again.stdout) as { files: { path: string; status: string }[] }).files.map((f) => [f.path, f.status])).toEqual([
      ['relctl.config.json', 'unchanged'],
      [file, 'unchanged'],
    ]);
    // Without --org the config is left alone; its fleet section is the selection.
    expect(JSON.parse((await init(root, '--json')).stdout)).toMatchObject({ ok: true, files: [{ path: file, status: 'unchanged' }] });
  });

  it('wires list → matrix → audit artifacts → report', async () => {
    expect((await init(root, '--org', 'acme')).exitCode).toBe(0);
    const wf = parse(await read(file)) as Workflow;
    expect(wf.on.schedule).toHaveLength(1);
    expect(wf.on.workflow_dispatch.inputs['max-parallel']).toMatchObject({ type: 'choice', default: '4' });
    expect(wf.on.workflow_dispatch.inputs.org).toMatchObject({ type: 'string', default: '' });
    expect(wf.permissions).toEqual({ contents: 'read' });
    const { list, audit, report } = wf.jobs as Record<'list' | 'audit' | 'report', Job>;
    expect(Object.keys(wf.jobs)).toEqual(['list', 'audit', 'report']);

    expect(list.outputs).toEqual({ repos: '${{ steps.matrix.outputs.repos }}' });
    expect(stepOf(list, 'list').with).toMatchObject({ command: 'fleet list', args: expect.stringMatching(/^--json --out relctl-fleet\/list\.json \$\{\{ env\.FLEET_SELECTION \}\}$/) });
    expect(wf.env.FLEET_SELECTION).toContain('inputs.org');

    expect(audit.needs).toBe('list');
    expect(audit.strategy).toEqual({ 'fail-fast': false, 'max-parallel': "${{ fromJSON(inputs.max-parallel || '4') }}", matrix: { repo: '${{ fromJSON(needs.list.outputs.repos) }}' } });
    const auditStep = stepOf(audit, 'audit');
    expect(auditStep.with).toMatchObject({ command: 'fleet audit', args: '--only ${{ matrix.repo.name }} --json --out relctl-fleet/${{ matrix.repo.artifact }}.json ${{ env.FLEET_SELECTION }}' });
    expect(auditStep['continue-on-error']).toBe(true);
    const upload = audit.steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'))!;
    expect(upload.if).toBe('always()');
    expect(upload.with).toMatchObject({ name: '${{ matrix.repo.artifact }}', path: 'relctl-fleet/${{ matrix.repo.artifact }}.json' });
    expect(audit.steps.at(-1)!.if).toBe("steps.audit.outputs.exit-code != '0' && steps.audit.outputs.exit-code != '1'");

    expect(report.needs).toEqual(['list', 'audit']);
    expect(report.if).toBe("always() && needs.list.result == 'success'");
    expect(report.permissions).toEqual({ contents: 'read', issues: 'write' });
    const download = report.steps.find((s) => s.uses?.startsWith('actions/download-artifact@'))!;
    expect(download.with).toEqual({ pattern: 'relctl-fleet-audit-*', path: 'relctl-fleet-documents' });
    expect(stepOf(report, 'report').with).toMatchObject({ command: 'fleet report', args: expect.stringMatching(/^--from relctl-fleet-documents --issue \$\{\{ github\.repository \}\} /) });
    for (const step of [stepOf(list, 'list'), auditStep, stepOf(report, 'report')]) {
      expect(step.uses).toBe('relctl/relctl@v0.1.0');
      expect(step.env).toEqual({ RELCTL_GITHUB_TOKEN: '${{ secrets.RELCTL_GITHUB_TOKEN || github.token }}' });
    }
  });

  it('the matrix step turns what fleet list --json --out writes into the matrix and artifact names the audit jobs use', async () => {
    expect((await init(root, '--org', 'acme')).exitCode).toBe(0);
    const wf = parse(await read(file)) as Workflow;
    await writeFile(path.join(root, 'repos.txt'), 'acme/acme-parent /nowhere/parent.git\nacme/site.docs /nowhere/site.git\n');
    const listed = await runCli(['fleet', 'list', '--repos', 'repos.txt', ...stepOf(wf.jobs.list!, 'list').with!.args!.split(' ').slice(0, 3)], { cwd: root, home });
    expect(listed.exitCode, listed.stderr).toBe(0);
    const output = path.join(temp.path, 'github-output');
    await writeFile(output, '');
    await execa('bash', ['-e', '-c', stepOf(wf.jobs.list!, 'matrix').run!], { cwd: root, env: { GITHUB_OUTPUT: output } });
    const line = (await readFile(output, 'utf8')).trim();
    expect(line.startsWith('repos=')).toBe(true);
    expect(JSON.parse(line.slice('repos='.length))).toEqual([
      { name: 'acme/acme-parent', artifact: 'relctl-fleet-audit-acme_acme-parent' },
      { name: 'acme/site.docs', artifact: 'relctl-fleet-audit-acme_site.docs' },
    ]);
  });

  it('needs a selection; refuses release flags and a bad --org (exit 2); --dry-run writes nothing; --force replaces', async () => {
    const none = await init(root, '--json');
    expect(none.exitCode).toBe(2);
    expect(JSON.parse(none.stdout)).toMatchObject({ ok: false, error: { code: 'init-answer-needed' } });
    expect((await init(root, '--org', 'acme', '--route', 'staging-api')).stderr).toContain('--route answers questions of the release workflows');
    expect((await init(root, '--org', '-x')).exitCode).toBe(2);
    expect((await init(root, '--org', 'a b')).stderr).toContain('is not a GitHub organisation or user name');
    expect((await runCli(['init', '--org', 'acme'], { cwd: root, home })).stderr).toContain('--org names the fleet of relctl init --fleet');

    const dry = await init(root, '--org', 'acme', '--dry-run');
    expect(dry.exitCode).toBe(0);
    expect(dry.stdout).toContain(`--- ${file} (would write)`);
    expect(dry.stderr).toContain(`! write ${file}`);
    await expect(read(file)).rejects.toThrow('ENOENT');

    await mkdir(path.join(root, '.github', 'workflows'), { recursive: true });
    await writeFile(path.join(root, file), 'name: mine\n');
    await writeFile(path.join(root, 'relctl.config.json'), '{ "timeout": 90, "fleet": { "topic": "java" } }\n');
    const refused = await init(root, '--org', 'acme');
    expect(refused.exitCode).toBe(2);
    expect(refused.stdout).toMatch(/^refused {2}\.github\/workflows\/relctl-fleet\.yml$/m);
    expect(await read('relctl.config.json')).toBe('{ "timeout": 90, "fleet": { "topic": "java" } }\n');
    const forced = await init(root, '--org', 'acme', '--force');
    expect(forced.exitCode).toBe(0);
    expect(JSON.parse(await read('relctl.config.json'))).toMatchObject({ timeout: 90, fleet: { topic: 'java', org: ['acme'] } });
  });

  it('--repository/--ref pin the action; a project in a sub-folder is the working directory of every step', async () => {
    const sub = path.join(root, 'fleet admin');
    await mkdir(sub);
    await writeFile(path.join(sub, 'relctl.config.json'), '{ "fleet": { "repos": ["acme/a"] } }\n');
    const sha = 'b'.repeat(40);
    const r = await init(sub, '--repository', 'my-org/relctl', '--ref', sha);
    expect(r.exitCode, r.stderr).toBe(0);
    const text = await read(file);
    expect(lintLines(await actionlint(text, file))).toEqual([]);
    const wf = parse(text) as Workflow;
    for (const [job, id] of [['list', 'list'], ['list', 'matrix'], ['audit', 'audit'], ['report', 'report']] as const) {
      const step = stepOf(wf.jobs[job]!, id);
      expect(step.with?.['working-directory'] ?? step['working-directory'], `${job}.${id}`).toBe('fleet admin');
      if (step.uses !== undefined) expect(step.uses).toBe(`my-org/relctl@${sha}`);
    }
    expect(wf.jobs.audit!.steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'))!.with!.path).toBe('fleet admin/relctl-fleet/${{ matrix.repo.artifact }}.json');
    expect(wf.jobs.report!.steps.find((s) => s.uses?.startsWith('actions/download-artifact@'))!.with!.path).toBe('fleet admin/relctl-fleet-documents');
  });
});
