/**
 * action.yml, run as the Actions runner runs a composite action (test/helpers/composite-action.ts):
 * from a clean checkout of this repository (the files git would check out: no dist/, bundle/ or
 * node_modules), so the install step really installs and builds, against fixture projects.
 */
import { chmod, cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCompositeAction } from '../helpers/composite-action.js';
import { repoRoot } from '../helpers/cli.js';
import { gitRepo, tempDir, type TempDir } from '../helpers/temp.js';

let temp: TempDir;
let checkout: string;
const home = (): string => path.join(temp.path, 'home');

/** The files a clone of the repository holds (tracked, plus new files not ignored). */
async function cleanCheckout(into: string): Promise<void> {
  const { stdout } = await execa('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: repoRoot });
  for (const rel of stdout.split('\0').filter((f) => f !== '')) {
    const from = path.join(repoRoot, rel);
    const to = path.join(into, rel);
    await mkdir(path.dirname(to), { recursive: true });
    await cp(from, to).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error; // deleted in the working tree, not yet committed
    });
  }
}

async function project(name: string, example: string): Promise<string> {
  const dir = path.join(temp.path, 'workspace', name);
  await cp(path.join(repoRoot, 'examples', example), dir, { recursive: true });
  await gitRepo(dir, home(), {});
  return path.join(temp.path, 'workspace');
}

// npm takes the packages from its cache when it has them (the suite's own `npm ci` filled it).
const env = (): Record<string, string | undefined> => ({ PATH: process.env.PATH, HOME: home(), npm_config_prefer_offline: 'true', npm_config_cache: process.env.npm_config_cache ?? path.join(process.env.HOME ?? '', '.npm') });

beforeAll(async () => {
  temp = await tempDir('relctl-action-');
  await mkdir(home());
  checkout = path.join(temp.path, 'action');
  await cleanCheckout(checkout);
}, 30_000);
afterAll(async () => temp?.[Symbol.asyncDispose]());

describe('action.yml from a clean checkout', () => {
  it('installs relctl, runs the pull-request recipe and reports exit code 0', async () => {
    const workspace = await project('healthy', 'demo');
    const run = await runCompositeAction(checkout, {
      workspace,
      inputs: { args: '--offline --skip credentials signing', 'working-directory': 'healthy' },
      env: env(),
    });
    expect(run.steps.map((s) => [s.id, s.exitCode])).toEqual([['guard', 0], ['install', 0], ['run', 0]]);
    expect(run.outputs).toEqual({ 'exit-code': '0', 'sarif-file': '' });
    expect(run.stdout).toMatch(/^::notice file=pom\.xml,line=\d+::route: staging-api/m);
    expect(run.githubPath).toEqual([path.join(checkout, 'bin')]);
  }, 240_000);

  it('writes the outputs, then fails the step with relctl exit code 1 and annotations', async () => {
    const workspace = await project('broken', 'missing-developers');
    const run = await runCompositeAction(checkout, {
      workspace,
      inputs: { args: '--offline --skip credentials signing', 'working-directory': 'broken' },
      env: env(),
    });
    expect(run.steps.at(-1)).toMatchObject({ id: 'run', exitCode: 1 });
    expect(run.exitCode).toBe(1);
    expect(run.outputs['exit-code']).toBe('1');
    expect(run.stdout).toMatch(/^::error file=pom\.xml,line=8::missing-developers: /m);
    // Installed once: the second use in the same job does not install again.
    expect(run.stdout).toContain(`relctl is already built in ${checkout}`);
  }, 120_000);

  it('passes args as words, never as shell code', async () => {
    const workspace = await project('injection', 'demo');
    const marker = path.join(temp.path, 'pwned');
    const run = await runCompositeAction(checkout, {
      workspace,
      inputs: { args: `--offline $(touch ${marker}) \`touch ${marker}\` ; touch ${marker}`, 'working-directory': 'injection' },
      env: env(),
    });
    await expect(readFile(marker)).rejects.toThrow();
    // commander refuses the unknown words: a usage error, reported through the output.
    expect(run.outputs['exit-code']).toBe('2');
  }, 60_000);

  it('a bad format is exit code 2 before anything runs', async () => {
    const run = await runCompositeAction(checkout, { workspace: path.join(temp.path, 'workspace'), inputs: { format: 'xml' }, env: env() });
    expect(run.steps).toEqual([{ id: 'guard', exitCode: 2, outputs: { 'exit-code': '2' } }]);
    expect(run.outputs['exit-code']).toBe('2');
    expect(run.stdout).toContain('::error title=relctl action::format: "xml" is not github or sarif.');
  });
});

describe('action.yml guards', () => {
  it('refuses Node.js older than 20 with a message naming actions/setup-node', async () => {
    const bin = path.join(temp.path, 'old-node');
    await mkdir(bin, { recursive: true });
    await writeFile(path.join(bin, 'node'), '#!/bin/sh\necho v18.19.0\n');
    await chmod(path.join(bin, 'node'), 0o755);
    const run = await runCompositeAction(checkout, {
      workspace: path.join(temp.path, 'workspace'),
      env: { ...env(), PATH: `${bin}:${process.env.PATH}` },
    });
    expect(run.steps).toEqual([{ id: 'guard', exitCode: 3, outputs: { 'exit-code': '3' } }]);
    expect(run.outputs).toEqual({ 'exit-code': '3', 'sarif-file': '' });
    expect(run.stdout).toContain('relctl needs Node.js 20 or later; this runner has v18.19.0. Add actions/setup-node');
  });

  it('format sarif writes the SARIF report to the file named by sarif-file, then fails with relctl\'s exit code', async () => {
    const workspace = await project('sarif-bad', 'missing-developers');
    const run = await runCompositeAction(checkout, {
      workspace,
      inputs: { format: 'sarif', args: '--offline --skip credentials signing', 'working-directory': 'sarif-bad' },
      env: env(),
    });
    expect(run.outputs['exit-code']).toBe('1');
    expect(run.outputs['sarif-file']).toMatch(/relctl-sarif\.\w+\/relctl\.sarif$/);
    const doc = JSON.parse(await readFile(run.outputs['sarif-file']!, 'utf8')) as {
      version: string;
      runs: { results: { ruleId: string; locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[] }[];
    };
    expect(doc.version).toBe('2.1.0');
    const result = doc.runs[0]!.results.find((r) => r.ruleId === 'missing-developers');
    expect(result?.locations[0]!.physicalLocation.artifactLocation.uri).toBe('pom.xml');
  });

  it('inputs are one line and allowed values, checked before use: a line break cannot add a workflow command', async () => {
    const injected = '::add-mask::x\n::warning::injected by an input';
    const cases: [Record<string, string>, string][] = [
      [{ format: `github\n${injected}` }, 'format: must be one line; it holds a line break.'],
      [{ command: `preflight\n${injected}` }, 'command: must be one line; it holds a line break.'],
      [{ args: `--offline\r\n${injected}` }, 'args: must be one line; it holds a line break.'],
      [{ 'working-directory': `.\n${injected}` }, 'working-directory: must be one line; it holds a line break.'],
      [{ format: 'git%0Ahub' }, 'format: "git%250Ahub" is not github or sarif.'],
      [{ command: 'rm' }, 'command: "rm" is not a relctl command'],
      [{ command: 'keys --help' }, 'command: "--help" is not a subcommand; options go in args.'],
    ];
    await mkdir(path.join(temp.path, 'workspace'), { recursive: true });
    for (const [inputs, message] of cases) {
      const run = await runCompositeAction(checkout, { workspace: path.join(temp.path, 'workspace'), inputs, env: env() });
      expect(run.steps, JSON.stringify(inputs)).toEqual([{ id: 'guard', exitCode: 2, outputs: { 'exit-code': '2' } }]);
      expect(run.stdout).toContain(`::error title=relctl action::${message}`);
      // Each workflow command the runner would read starts a line: only the action's own error.
      expect(run.stdout.split('\n').filter((l) => l.startsWith('::'))).toHaveLength(1);
    }
  });

  it('format sarif with a command that has no SARIF is exit code 2', async () => {
    const run = await runCompositeAction(checkout, {
      workspace: path.join(temp.path, 'workspace'),
      inputs: { format: 'sarif', command: 'release' },
      env: env(),
    });
    expect(run.outputs).toEqual({ 'exit-code': '2', 'sarif-file': '' });
    expect(run.stdout).toContain('format: sarif is for preflight and verify, not release.');
  });
});
