import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../helpers/cli.js';
import { gitRepo, tempDir, type TempDir } from '../helpers/temp.js';
import type { Finding as JsonFinding } from '../../src/core/findings.js';

const fixtures = path.resolve(import.meta.dirname, '../fixtures/maven');
const home = path.join(fixtures, 'home');


async function readTree(dir: string, prefix = ''): Promise<Record<string, Buffer>> {
  const files: Record<string, Buffer> = {};
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const rel = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) Object.assign(files, await readTree(path.join(dir, entry.name), rel));
    else files[rel] = await readFile(path.join(dir, entry.name));
  }
  return files;
}

const temps: TempDir[] = [];
/** Copies a fixture project into a fresh git repository (the way a user's clone looks). */
async function project(name: string): Promise<string> {
  const dir = await tempDir('relctl-maven-');
  temps.push(dir);
  await gitRepo(dir.path, dir.path, await readTree(path.join(fixtures, 'projects', name)));
  return dir.path;
}

async function preflightJson(dir: string, env: Record<string, string | undefined> = {}, extra: string[] = []): Promise<CliResult & { findings: JsonFinding[] }> {
  const r = await runCli(['preflight', '--offline', '--json', '--cwd', dir, ...extra], { home, env });
  const doc = JSON.parse(r.stdout) as { ok: boolean; findings: JsonFinding[] };
  expect(doc.ok).toBe(r.exitCode === 0);
  return { ...r, findings: doc.findings };
}

const mavenCodes = [
  'xml-malformed', 'module-missing', 'parent-unresolved', 'legacy-staging-host', 'legacy-staging-id', 'distribution-url',
  'missing-distribution', 'server-id-mismatch', 'missing-developers', 'developers-incomplete', 'missing-pom-metadata', 'packaging-mismatch',
];

describe('relctl preflight on Maven projects', () => {
  const results: Record<string, CliResult & { findings: JsonFinding[] }> = {};
  beforeAll(async () => {
    const names = ['good', 'bad', 'legacy', 'nodist'];
    const dirs = await Promise.all(names.map(project));
    for (const [i, name] of names.entries()) results[name] = await preflightJson(dirs[i]!);
    return async () => {
      for (const t of temps) await t[Symbol.asyncDispose]();
    };
  });

  it('passes a complete project (exit 0) whose legacy parent is shadowed by the top-level distributionManagement', () => {
    const good = results.good!;
    expect(good.findings.filter((f) => mavenCodes.includes(f.code))).toEqual([]);
    expect(good.exitCode).toBe(0);
  });

  it.each(mavenCodes)('does not report %s on the complete project', (code) => {
    expect(results.good!.findings.map((f) => f.code)).not.toContain(code);
  });

  const expected: [string, string, Partial<JsonFinding>][] = [
    ['xml-malformed', 'bad', { severity: 'error', file: 'broken/pom.xml', line: 5 }],
    ['module-missing', 'bad', { severity: 'error', file: 'pom.xml', line: 27, module: 'org.example.bad:bad-parent' }],
    ['parent-unresolved', 'bad', { severity: 'warning', file: 'orphan/pom.xml', line: 4 }],
    ['legacy-staging-id', 'bad', { severity: 'warning', file: 'pom.xml', line: 20 }],
    ['distribution-url', 'bad', { severity: 'error', file: 'pom.xml', line: 21 }],
    ['server-id-mismatch', 'bad', { severity: 'error', file: 'pom.xml', line: 20 }],
    ['missing-developers', 'bad', { severity: 'error', file: 'pom.xml', line: 10, module: 'org.example.bad:bad-parent' }],
    ['developers-incomplete', 'bad', { severity: 'warning', file: 'web/pom.xml', line: 13, module: 'org.example.bad:bad-web' }],
    ['missing-pom-metadata', 'bad', { severity: 'error', file: 'lib/pom.xml', line: 9, module: 'org.example.bad:bad-lib' }],
    ['packaging-mismatch', 'bad', { severity: 'error', file: 'web/pom.xml', line: 10, module: 'org.example.bad:bad-web' }],
    ['legacy-staging-host', 'legacy', { severity: 'error', file: 'pom.xml', line: 4, module: 'org.example.old:old-lib' }],
    ['missing-distribution', 'nodist', { severity: 'error', file: 'pom.xml', line: 10, module: 'org.example.nodist:nodist' }],
  ];
  it.each(expected)('reports %s on the %s project with file, line, module and fix', (code, name, shape) => {
    const r = results[name]!;
    expect(r.exitCode).toBe(1);
    const hits = r.findings.filter((f) => f.code === code);
    expect(hits).toContainEqual(expect.objectContaining({ code, ...shape }));
    for (const f of hits) expect(f.fix).toMatch(/\w/);
  });

  it('reports a value shared by every module once, where it is declared', () => {
    expect(results.bad!.findings.filter((f) => f.code === 'distribution-url')).toHaveLength(1);
  });

  it('takes server credentials from ${env.NAME} and names the variable when it is unset', async () => {
    const dir = await project('envserver');
    const unset = await preflightJson(dir);
    const hit = unset.findings.find((f) => f.code === 'server-id-mismatch');
    expect(hit?.message).toContain('FIXTURE_TOKEN_PASS');
    const set = await preflightJson(dir, { FIXTURE_TOKEN_USER: 'tok-user-Qq1', FIXTURE_TOKEN_PASS: 'tok-pass-Ww2' });
    expect(set.findings.map((f) => f.code)).not.toContain('server-id-mismatch');
    expect(set.stdout + set.stderr).not.toContain('tok-pass-Ww2');
    // relctl release writes a token from RELCTL_TOKEN_* into a private settings file itself.
    const fromRelctl = await preflightJson(dir, { RELCTL_TOKEN_USERNAME: 'tok-user-Ee3', RELCTL_TOKEN_PASSWORD: 'tok-pass-Rr4' });
    expect(fromRelctl.findings.map((f) => f.code)).not.toContain('server-id-mismatch');
  });

  it('honours --settings and --local-repo instead of HOME', async () => {
    await using empty = await tempDir();
    const dir = await project('nodist');
    const r = await runCli(
      ['preflight', '--offline', '--json', '--cwd', dir, '--local-repo', path.join(home, '.m2/repository'), '--settings', path.join(home, '.m2/settings.xml')],
      { home: empty.path },
    );
    const codes = (JSON.parse(r.stdout) as { findings: JsonFinding[] }).findings.map((f) => f.code);
    expect(codes).toEqual(expect.arrayContaining(['missing-distribution']));
    expect(codes).not.toContain('parent-unresolved');
    expect(codes).not.toContain('missing-developers');
  });

  it('prints text grouped by module with a summary line', async () => {
    const r = await runCli(['preflight', '--offline', '--cwd', await project('legacy')], { home });
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toMatch(/^org\.example\.old:old-lib$/m);
    expect(r.stdout).toMatch(/^\s+error\s+legacy-staging-host pom\.xml:4$/m);
    expect(r.stdout).toMatch(/fix: Declare <distributionManagement> in the top-level pom\.xml/);
    expect(r.stdout.trim().split('\n').at(-1)).toMatch(/^preflight: failed \(\d+ errors?, \d+ warnings?\)$/);
  });

  it('prints GitHub annotations with --format github', async () => {
    const r = await runCli(['preflight', '--offline', '--format', 'github', '--cwd', await project('nodist')], { home });
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toMatch(/^::error file=pom\.xml,line=10::missing-distribution: .+ Fix: Add <distributionManagement>/m);
  });
});
