/**
 * The real-world corpus (test/fixtures/real-world): each fixture copied into a temp folder as a
 * user's clone (a real git repository, committed, tagged), and preflight's --json answer on it.
 * A case names the route, the finding codes an expert expects and the codes that must not appear.
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { runCli, type CliResult } from './cli.js';
import { git, gitEnv } from './temp.js';

export const corpus = path.resolve(import.meta.dirname, '../fixtures/real-world');
export const emptyHome = path.join(corpus, 'empty-home');
const fullHome = path.join(corpus, 'home');

export interface PreflightDoc {
  ok: boolean;
  route: { kind: string; evidence: { file: string; line: number; why: string }[] };
  findings: { code: string; severity: string; file?: string; line?: number; message: string; fix?: string }[];
}

/** Copies `fixture` to `<work>/<name>` and makes it a git repository with `tags`. */
export async function cloneFixture(work: string, fixture: string, name: string, tags: readonly string[] = []): Promise<string> {
  const dir = path.join(work, name.replace(/\W+/g, '-'));
  await cp(path.join(corpus, fixture), dir, { recursive: true });
  await git(dir, work, 'init', '-q', '-b', 'main');
  await git(dir, work, 'add', '-A');
  await git(dir, work, 'commit', '-q', '-m', 'initial');
  for (const tag of tags) await git(dir, work, 'tag', tag);
  return dir;
}

/** Git's isolation variables without HOME (each run chooses its own). */
export function gitIsolation(work: string): Record<string, string> {
  const { HOME: _home, ...rest } = gitEnv(work);
  return rest;
}

/** `relctl preflight --offline --json` on `dir` with `home` as HOME. */
export async function preflightJson(dir: string, home: string, env: Record<string, string>): Promise<{ r: CliResult; doc: PreflightDoc; codes: string[] }> {
  const r = await runCli(['preflight', '--offline', '--json', '--cwd', dir], { home, env });
  const doc = JSON.parse(r.stdout) as PreflightDoc;
  return { r, doc, codes: [...new Set(doc.findings.map((f) => f.code))].sort() };
}

export interface RealWorldCase {
  name: string;
  /** Fixture folder, when the case name differs from it. */
  fixture?: string;
  home?: 'full' | 'empty';
  env?: Record<string, string>;
  tags?: string[];
  route: string;
  codes: string[];
  absent: string[];
  /** Exit 0 under the pull-request recipe with an empty HOME. */
  healthy: boolean;
}

/** A scratch folder for the clones; call `dispose` in afterAll. */
export async function realWorldWorkspace(): Promise<{ dir: string; dispose: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'relctl-real-world-'));
  return { dir, dispose: () => rm(dir, { recursive: true, force: true }) };
}

/** `preflight --offline --json`: the route, exactly the expected codes, none of the absent ones. */
export async function expectJudgement(work: string, c: RealWorldCase): Promise<void> {
  const dir = await cloneFixture(work, c.fixture ?? c.name, `${c.name}-check`, c.tags);
  const r = await runCli(['preflight', '--offline', '--json', '--cwd', dir], {
    home: c.home === 'empty' ? emptyHome : fullHome,
    env: { ...gitIsolation(work), ...c.env },
  });
  const doc = JSON.parse(r.stdout) as PreflightDoc;
  expect(doc.route.kind, r.stdout).toBe(c.route);
  if (c.route !== 'unknown') expect(doc.route.evidence.length).toBeGreaterThan(0);
  const codes = [...new Set(doc.findings.map((f) => f.code))].sort();
  expect(codes, r.stdout).toEqual([...c.codes].sort());
  for (const code of c.absent) expect(codes).not.toContain(code);
  const errors = doc.findings.some((f) => f.severity === 'error');
  expect(r.exitCode, r.stderr).toBe(errors ? 1 : 0);
}

/** The pull-request recipe (`--offline --skip credentials signing`, no secrets): exit 0 and the route first. */
export async function expectPullRequestPasses(work: string, c: RealWorldCase): Promise<void> {
  const dir = await cloneFixture(work, c.fixture ?? c.name, `${c.name}-pr`, c.tags);
  const localRepo = path.join(fullHome, '.m2', 'repository');
  const r = await runCli(['preflight', '--offline', '--skip', 'credentials', 'signing', '--local-repo', localRepo, '--cwd', dir], {
    home: emptyHome,
    env: gitIsolation(work),
  });
  expect(r.exitCode, r.stdout + r.stderr).toBe(0);
  expect(r.stdout.split('\n')[0]).toMatch(new RegExp(`^route: ${c.route}`));
}
