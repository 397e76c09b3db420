/**
 * The real-world preflight corpus (test/fixtures/real-world): a case is one fixture folder with
 * the route, the finding codes an expert expects, and the codes that must not appear. These
 * helpers copy a fixture into a committed git repository and run both recipes on it.
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { runCli } from './cli.js';
import { git, gitEnv } from './temp.js';

export const corpus = path.resolve(import.meta.dirname, '../fixtures/real-world');
const fullHome = path.join(corpus, 'home');
const emptyHome = path.join(corpus, 'empty-home');

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

interface Doc {
  route: { kind: string; evidence: { file: string; line: number; why: string }[] };
  findings: { code: string; severity: string }[];
}

/** A scratch folder for the clones; call `dispose` in afterAll. */
export async function realWorldWorkspace(): Promise<{ dir: string; dispose: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'relctl-real-world-'));
  return { dir, dispose: () => rm(dir, { recursive: true, force: true }) };
}

function gitIsolation(work: string): Record<string, string> {
  const { HOME: _home, ...rest } = gitEnv(work);
  return rest;
}

/** The fixture as a user's clone: a real git repository, committed, with the case's tags. */
async function clone(work: string, c: RealWorldCase, suffix: string): Promise<string> {
  const dir = path.join(work, `${c.name.replace(/\W+/g, '-')}-${suffix}`);
  await cp(path.join(corpus, c.fixture ?? c.name), dir, { recursive: true });
  await git(dir, work, 'init', '-q', '-b', 'main');
  await git(dir, work, 'add', '-A');
  await git(dir, work, 'commit', '-q', '-m', 'initial');
  for (const tag of c.tags ?? []) await git(dir, work, 'tag', tag);
  return dir;
}

/** `preflight --offline --json`: the route, exactly the expected codes, none of the absent ones. */
export async function expectJudgement(work: string, c: RealWorldCase): Promise<void> {
  const dir = await clone(work, c, 'check');
  const r = await runCli(['preflight', '--offline', '--json', '--cwd', dir], {
    home: c.home === 'empty' ? emptyHome : fullHome,
    env: { ...gitIsolation(work), ...c.env },
  });
  const doc = JSON.parse(r.stdout) as Doc;
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
  const dir = await clone(work, c, 'pr');
  const localRepo = path.join(fullHome, '.m2', 'repository');
  const r = await runCli(['preflight', '--offline', '--skip', 'credentials', 'signing', '--local-repo', localRepo, '--cwd', dir], {
    home: emptyHome,
    env: gitIsolation(work),
  });
  expect(r.exitCode, r.stdout + r.stderr).toBe(0);
  expect(r.stdout.split('\n')[0]).toMatch(new RegExp(`^route: ${c.route}`));
}
