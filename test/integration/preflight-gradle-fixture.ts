import { cp } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { expect } from 'vitest';
import { runCli, type CliResult } from '../helpers/cli.js';
import { git, tempDir, type TempDir } from '../helpers/temp.js';
import type { Finding as JsonFinding, SkippedCheck } from '../../src/core/findings.js';

export const gradleFixtures = path.resolve(import.meta.dirname, '../fixtures/gradle');
export const completeHome = path.join(gradleFixtures, 'home-complete');
export const partialHome = path.join(gradleFixtures, 'home-partial');

export type PreflightResult = CliResult & { ok: boolean; findings: JsonFinding[]; skipped: SkippedCheck[] };

/** A temp folder holding a copy of a fixture project, optionally as a fresh git repository on main. */
export async function fixtureCopy(name: string | undefined, options: { git: boolean }): Promise<TempDir> {
  const dir = await tempDir('relctl-gradle-');
  if (name !== undefined) await cp(path.join(gradleFixtures, name), dir.path, { recursive: true });
  if (options.git) {
    await git(dir.path, dir.path, 'init', '-q', '-b', 'main');
    await git(dir.path, dir.path, 'add', '-A');
    await git(dir.path, dir.path, 'commit', '-q', '--allow-empty', '-m', 'initial');
  }
  return dir;
}

/** `relctl preflight --json`, isolated from the developer's Gradle and git configuration. */
export async function preflight(
  cwd: string,
  options: { home?: string; env?: Record<string, string | undefined>; offline?: boolean } = {},
): Promise<PreflightResult> {
  const args = ['preflight', '--json', '--cwd', cwd];
  if (options.offline !== false) args.push('--offline');
  // A private copy of the fixture home: tools relctl runs (gpg for the key checks) may create
  // files under HOME, and the fixtures must stay as committed.
  await using home = await tempDir('relctl-gradle-home-');
  await cp(options.home ?? completeHome, home.path, { recursive: true });
  const r = await runCli(args, {
    home: home.path,
    env: { GRADLE_USER_HOME: undefined, GIT_CONFIG_NOSYSTEM: '1', ...options.env },
  });
  // The online key checks may have started a gpg-agent for this home: stop exactly that one.
  await execa('gpgconf', ['--homedir', path.join(home.path, '.gnupg'), '--kill', 'gpg-agent'], { reject: false });
  expect(r.stderr).not.toMatch(/\n\s+at |internal error/);
  const doc = JSON.parse(r.stdout) as { ok: boolean; findings: JsonFinding[]; skipped: SkippedCheck[] };
  expect(doc.ok).toBe(r.exitCode === 0);
  return { ...r, ok: doc.ok, findings: doc.findings, skipped: doc.skipped };
}

export function codes(r: PreflightResult): string[] {
  return r.findings.map((f) => f.code);
}
