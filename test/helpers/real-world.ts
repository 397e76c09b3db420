/**
 * The real-world corpus (test/fixtures/real-world): each fixture copied into a temp folder as a
 * user's clone (a real git repository, committed, tagged), and preflight's --json answer on it.
 */
import { cp } from 'node:fs/promises';
import path from 'node:path';
import { runCli, type CliResult } from './cli.js';
import { git, gitEnv } from './temp.js';

export const corpus = path.resolve(import.meta.dirname, '../fixtures/real-world');
export const emptyHome = path.join(corpus, 'empty-home');

export interface PreflightDoc {
  ok: boolean;
  route: { kind: string; evidence: { file: string; line: number; why: string }[] };
  findings: { code: string; severity: string; file?: string; line?: number; message: string }[];
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
