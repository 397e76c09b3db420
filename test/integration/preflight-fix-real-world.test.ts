/**
 * `preflight --fix` on the whole Maven real-world corpus (test/fixtures/real-world and
 * realworld-src): every fixture with a fixable finding is fixed in a temp clone with a temp copy
 * of the corpus HOME. Afterwards preflight no longer reports what was fixed and reports nothing
 * new, `git diff -U0` touches only the lines the edits name, and real Maven (`mvn -o -q validate`,
 * offline) still reads every fixed POM and the fixed settings file.
 *
 * Gradle fixtures are left to the Gradle fix rules' own corpus test.
 */
import { cp, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { git, gitEnv } from '../helpers/temp.js';
import { runMaven } from '../helpers/maven.js';

const fixtures = path.resolve(import.meta.dirname, '../fixtures');
const corpusHome = path.join(fixtures, 'real-world', 'home');

interface FixDoc {
  findings: { code: string; file?: string }[];
  fixed: { file: string; line: number; code: string; before: string; after: string }[];
  declined: { code: string; why: string }[];
}

const work = await mkdtemp(path.join(os.tmpdir(), 'relctl-fix-corpus-'));
afterAll(() => rm(work, { recursive: true, force: true }));

async function mavenFixtures(): Promise<string[]> {
  const out: string[] = [];
  for (const base of ['real-world', 'realworld-src']) {
    for (const name of (await readdir(path.join(fixtures, base))).sort()) {
      if ((await stat(path.join(fixtures, base, name, 'pom.xml')).catch(() => undefined))?.isFile()) out.push(`${base}/${name}`);
    }
  }
  return out;
}

/** A clone of the fixture and a HOME of its own (the fix writes into its settings file). */
async function clone(fixture: string, suffix: string): Promise<{ dir: string; home: string; env: Record<string, string> }> {
  const root = path.join(work, `${fixture.replace(/\W+/g, '-')}-${suffix}`);
  const dir = path.join(root, 'project');
  const home = path.join(root, 'home');
  await cp(path.join(fixtures, fixture), dir, { recursive: true });
  await cp(corpusHome, home, { recursive: true });
  await git(dir, home, 'init', '-q', '-b', 'main');
  await git(dir, home, 'add', '-A');
  await git(dir, home, 'commit', '-q', '-m', 'initial');
  const { HOME: _h, ...env } = gitEnv(home);
  return { dir, home, env: { ...env, CENTRAL_TOKEN_USERNAME: 'corpus-user', CENTRAL_TOKEN_PASSWORD: 'corpus-pass' } };
}

const preflight = async (c: { dir: string; home: string; env: Record<string, string> }, ...args: string[]): Promise<FixDoc> =>
  JSON.parse((await runCli(['preflight', '--offline', '--json', '--cwd', c.dir, ...args], { home: c.home, env: c.env })).stdout) as FixDoc;

// The Debian plugin repository as a mirror (global settings), so the user settings under test stay as fixed.
const globalSettings = path.join(work, 'global-settings.xml');
await writeFile(globalSettings, '<settings><mirrors><mirror><id>debian</id><mirrorOf>*</mirrorOf><url>file:///usr/share/maven-repo</url></mirror></mirrors></settings>\n');

async function validate(c: { dir: string; home: string }): Promise<{ exitCode: number; output: string }> {
  return runMaven(['-o', '-q', '-gs', globalSettings, 'validate'], { cwd: c.dir, settings: path.join(c.home, '.m2', 'settings.xml'), localRepo: path.join(c.home, '.m2', 'repository'), timeoutMs: 60_000 });
}

const parseError = /Non-parseable|Non-readable|Unrecognised tag|Error reading settings|XmlPullParserException|ParseException/;

/** Hunks of `git diff -U0` per file: the old line range each one replaces, or where it inserts. */
async function hunks(dir: string, home: string): Promise<Map<string, { oldStart: number; oldCount: number }[]>> {
  const diff = await git(dir, home, 'diff', '-U0', '--no-color');
  const out = new Map<string, { oldStart: number; oldCount: number }[]>();
  let file = '';
  for (const line of diff.split('\n')) {
    const f = /^\+\+\+ b\/(.*)$/.exec(line);
    if (f !== null) file = f[1]!;
    const h = /^@@ -(\d+)(?:,(\d+))? /.exec(line);
    if (h !== null) out.set(file, [...(out.get(file) ?? []), { oldStart: Number(h[1]), oldCount: h[2] === undefined ? 1 : Number(h[2]) }]);
  }
  return out;
}

interface Outcome {
  fixture: string;
  before: FixDoc;
  fixed?: FixDoc;
  hunks?: Map<string, { oldStart: number; oldCount: number }[]>;
  mvn?: { exitCode: number; output: string };
  mvnOriginal?: { exitCode: number; output: string };
}

async function fixOne(fixture: string): Promise<Outcome> {
  const c = await clone(fixture, 'fix');
  // The dry run is the audit before (its findings) and tells whether anything is fixable at all.
  const before = await preflight(c, '--fix', '--dry-run');
  if (before.fixed.length === 0) return { fixture, before };
  const fixed = await preflight(c, '--fix');
  const outcome: Outcome = { fixture, before, fixed, hunks: await hunks(c.dir, c.home) };
  // Fixtures whose only edit is the same kind of <server> added to the same corpus settings file
  // (their POMs unchanged): Maven reading one of them proves the insertion; the rest save a JVM start each.
  const settingsOnly = fixed.fixed.every((e) => path.isAbsolute(e.file) && e.before === '');
  if (settingsOnly && settingsOnlyValidated) return outcome;
  if (settingsOnly) settingsOnlyValidated = true;
  outcome.mvn = await validate(c);
  if (outcome.mvn.exitCode !== 0) outcome.mvnOriginal = await validate(await clone(fixture, 'orig'));
  return outcome;
}
let settingsOnlyValidated = false;

/** A few at a time (the machine is shared): two relctl runs and one or two JVM starts per fixable fixture. */
async function pool<T, R>(items: readonly T[], width: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await run(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
  return out;
}

const fixturesList = await mavenFixtures();

describe('preflight --fix on the real-world Maven corpus', () => {
  const outcomes = new Map<string, Outcome>();
  beforeAll(async () => {
    for (const o of await pool(fixturesList, 3, fixOne)) outcomes.set(o.fixture, o);
  }, 300_000);

  it('covers the corpus, and the fixtures with something fixable', () => {
    expect(fixturesList.length).toBeGreaterThan(30);
    // The retired-host and legacy-id fixtures and the ones missing a <server> (named so a change in the corpus shows).
    const fixable = [...outcomes.values()].filter((o) => o.fixed !== undefined).map((o) => o.fixture);
    expect(fixable).toEqual(expect.arrayContaining(['real-world/mvn-jsoup-legacy', 'real-world/mvn-guava-bom', 'real-world/mvn-zxing-profile-modules', 'real-world/mvn-property-distribution', 'real-world/nexus-staging-leftover', 'real-world/foundation-component']));
    expect(fixable.length).toBeGreaterThanOrEqual(12);
    expect([...outcomes.values()].filter((o) => o.mvn !== undefined).length).toBeGreaterThanOrEqual(8);
  });

  it.each(fixturesList)('%s: fixed codes gone, nothing new, only the named lines changed, Maven still reads it', (fixture) => {
    const o = outcomes.get(fixture)!;
    if (o.fixed === undefined) return; // nothing fixable in this one
    const fixed = o.fixed;
    const beforeCodes = new Set(o.before.findings.map((f) => f.code));
    const after = fixed.findings;
    // Nothing new, and a fixed code remains only as often as a finding of it was declined.
    for (const f of after) expect(beforeCodes, `${fixture}: new ${f.code}`).toContain(f.code);
    for (const code of new Set(fixed.fixed.map((e) => e.code))) {
      expect(after.filter((f) => f.code === code).length, `${fixture}: ${code} left`).toBeLessThanOrEqual(fixed.declined.filter((d) => d.code === code).length);
    }
    // The dry run planned exactly what was written.
    expect(fixed.fixed).toEqual(o.before.fixed);
    // Every changed line of the project is one an edit names (a replacement there, or an insertion before it).
    const projectEdits = fixed.fixed.filter((e) => !path.isAbsolute(e.file));
    for (const [file, list] of o.hunks!) {
      const edits = projectEdits.filter((e) => e.file === file);
      for (const h of list) {
        if (h.oldCount === 0) expect(edits.some((e) => e.before === '' && e.line === h.oldStart + 1), `${fixture}: insertion after ${file}:${h.oldStart}`).toBe(true);
        else for (let l = h.oldStart; l < h.oldStart + h.oldCount; l++) expect(edits.some((e) => e.before !== '' && e.line === l), `${fixture}: ${file}:${l} changed`).toBe(true);
      }
    }
    // Real Maven reads the fixed POMs and settings; where it cannot build the model offline
    // (a parent or an extension not on disk), it failed the same way before the fix.
    if (o.mvn === undefined) return; // a settings-only fix another fixture's Maven run covers (fixOne)
    expect(o.mvn.output, fixture).not.toMatch(parseError);
    if (o.mvn.exitCode !== 0) expect(o.mvnOriginal!.exitCode, `${fixture}: Maven read the original but not the fixed project:\n${o.mvn!.output}`).not.toBe(0);
  });
});
