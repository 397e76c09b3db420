/**
 * Issue 27 item 9: a project that tagged its releases `rel_3_30_2_ga` for `3.30.2-GA` (uPortal's
 * old scheme), with no tag format configured. relctl learns the format from the ~50 tags of a real
 * git repository and uses it in preflight (not-snapshot, orphan-tag), --fix, notes and the
 * release's version decision (the `-Dtag=` the build gets).
 */
import { cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandContext } from '../../src/io/command-context.js';
import { decideVersion } from '../../src/release/version-decision.js';
import { runCli } from '../helpers/cli.js';
import { startPublicRepo } from '../helpers/public-repo.js';
import { git, gitRepo, tempDir, type TempDir } from '../helpers/temp.js';

let work: TempDir;

const pom = (version: string) =>
  `<?xml version="1.0"?>\n<project>\n  <modelVersion>4.0.0</modelVersion>\n  <groupId>org.example.portal</groupId>\n  <artifactId>portal</artifactId>\n  <version>${version}</version>\n</project>\n`;

/** 50 releases up to 3.30.2-GA, each a commit and a tag `rel_X_Y_Z_ga`. */
const released: string[] = [];
for (let minor = 0; minor < 30; minor++) released.push(...[`3.${minor}.0-GA`, ...(minor < 17 ? [`3.${minor}.1-GA`] : [])]);
released.push('3.30.0-GA', '3.30.1-GA', '3.30.2-GA');
const tagOf = (v: string) => `rel_${v.replace(/[.-]/g, '_').toLowerCase()}`;

let history: string;

/** A copy of the tagged history (built once), plus `extraTags` on its last commit. */
async function project(name: string, extraTags: string[] = []): Promise<string> {
  const dir = path.join(work.path, name);
  await cp(history, dir, { recursive: true });
  for (const t of extraTags) await git(dir, work.path, 'tag', t);
  return dir;
}

const cli = (dir: string, args: string[]) => runCli([...args, '--cwd', dir], { home: work.path });

interface Finding {
  code: string;
  message: string;
  fix?: string;
}

let plain: string;

beforeAll(async () => {
  work = await tempDir('relctl-learned-tags-');
  history = path.join(work.path, 'history');
  await gitRepo(history, work.path, { 'pom.xml': pom('2.9.9-GA') });
  for (const v of released) {
    await writeFile(path.join(history, 'pom.xml'), pom(v));
    await git(history, work.path, 'commit', '-q', '-am', `[maven-release-plugin] prepare release ${tagOf(v)}`);
    await git(history, work.path, 'tag', tagOf(v));
  }
  plain = await project('rel-ga');
}, 120_000);
afterAll(async () => {
  await work?.[Symbol.asyncDispose]();
});

describe('a project tagged rel_X_Y_Z_ga (no tag format configured)', () => {
  it('has the 50 tags the test means', () => {
    expect(released).toHaveLength(50);
    expect(released.at(-1)).toBe('3.30.2-GA');
  });

  it('preflight: not-snapshot on the released 3.30.2-GA names its tag and the next snapshot; --verbose says what was learned', async () => {
    const r = await cli(plain, ['preflight', '--offline', '--verbose', '--json']);
    const doc = JSON.parse(r.stdout) as { findings: Finding[]; skipped: { check: string }[] };
    const f = doc.findings.find((x) => x.code === 'not-snapshot');
    expect(f?.fix).toContain('3.30.2-GA is tagged rel_3_30_2_ga, so it was released: set the version to 3.30.3-GA-SNAPSHOT');
    expect(r.stderr).toContain("The project's tags are in its own format: tag format rel_{version|lower|.=_|-=_} learned from 50 tags (3.30.2-GA is tagged rel_3_30_2_ga)");
    expect(doc.skipped.map((s) => s.check)).not.toContain('orphan-tag');
  });

  it('preflight --fix moves 3.30.2-GA to 3.30.3-GA-SNAPSHOT (the tag shows it was released) once a commit follows the tag', async () => {
    const dir = await project('fix');
    // The tag at HEAD with nothing after it is a release under way (issue 29): the bump waits, naming the learned tag.
    const underWay = await cli(dir, ['preflight', '--fix', '--offline', '--yes', '--json']);
    expect(underWay.stdout).toContain('3.30.2-GA is tagged rel_3_30_2_ga at HEAD and no development commit follows it');
    expect(await readFile(path.join(dir, 'pom.xml'), 'utf8')).toContain('<version>3.30.2-GA</version>');
    // The other fixes it made, committed with a development change.
    await writeFile(path.join(dir, 'NOTES.md'), 'after the release\n');
    await git(dir, work.path, 'add', '-A');
    await git(dir, work.path, 'commit', '-q', '-m', 'notes');
    const r = await cli(dir, ['preflight', '--fix', '--offline', '--yes', '--json']);
    expect(r.stderr).not.toMatch(/no release tag/);
    expect(await readFile(path.join(dir, 'pom.xml'), 'utf8')).toContain('<version>3.30.3-GA-SNAPSHOT</version>');
  });

  it('preflight: orphan-tag on rel_3_31_0_ga, and the release moves on to 3.31.1-GA tagged rel_3_31_1_ga', async () => {
    const dir = await project('orphan', ['rel_3_31_0_ga']);
    await writeFile(path.join(dir, 'pom.xml'), pom('3.31.0-GA-SNAPSHOT'));
    await git(dir, work.path, 'commit', '-q', '-am', 'next');
    const r = await cli(dir, ['preflight', '--offline', '--json']);
    const orphan = (JSON.parse(r.stdout) as { findings: Finding[] }).findings.find((x) => x.code === 'orphan-tag');
    expect(orphan?.message).toContain('The release tag rel_3_31_0_ga already exists');
    expect(orphan?.message).toContain('release 3.31.1-GA (tag rel_3_31_1_ga)');
  });

  it('release: the version decision makes the tag rel_3_31_0_ga for -Dtag=', async () => {
    const dir = await project('release');
    await writeFile(path.join(dir, 'pom.xml'), pom('3.31.0-GA-SNAPSHOT'));
    await git(dir, work.path, 'commit', '-q', '-am', 'next');
    await using repo = await startPublicRepo('org.example.portal', 'portal', released);
    const said: string[] = [];
    const out = { verbose: (l: string) => said.push(l), info: () => undefined, warn: () => undefined };
    const ctx = {
      cwd: dir,
      out: out as unknown as CommandContext['out'],
      config: { publicRepoUrl: repo.url, timeout: 5 } as CommandContext['config'],
      configSources: {},
      env: { HOME: work.path, PATH: process.env.PATH },
      canPrompt: false,
      ci: true,
      signal: new AbortController().signal,
    } satisfies CommandContext;
    const d = await decideVersion(ctx, { buildTool: 'maven', groupId: 'org.example.portal', artifactId: 'portal', version: '3.31.0-GA-SNAPSHOT' });
    expect(d).toMatchObject({ version: '3.31.0-GA', nextVersion: '3.31.1-GA-SNAPSHOT', tag: 'rel_3_31_0_ga', firstRelease: false });
    expect(said.join('\n')).toContain('learned from 50 tags');
  });

  it('notes: the previous release is found by its rel_ tag', async () => {
    const dir = await project('notes');
    await writeFile(path.join(dir, 'pom.xml'), pom('3.31.0-GA-SNAPSHOT'));
    await git(dir, work.path, 'commit', '-q', '-am', 'feat: a portlet for the weather');
    const r = await cli(dir, ['notes', '--release-version', '3.31.0-GA', '--offline', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { previous?: string; sections: { title: string; entries: { subject: string }[] }[] };
    expect(doc.previous).toBe('3.30.2-GA');
    expect(doc.sections.flatMap((s) => s.entries.map((e) => e.subject))).toEqual(['a portlet for the weather']);
  });

  it('a configured format relctl cannot fill (@{project.groupId}) gives way to the learned one: orphan-tag runs instead of being skipped', async () => {
    const dir = await project('unknown-format', ['rel_3_31_0_ga']);
    const plugin = '<build><plugins><plugin><artifactId>maven-release-plugin</artifactId><configuration><tagNameFormat>@{project.groupId}-@{project.version}</tagNameFormat></configuration></plugin></plugins></build>';
    await writeFile(path.join(dir, 'pom.xml'), pom('3.31.0-GA-SNAPSHOT').replace('</project>', `  ${plugin}\n</project>`));
    await git(dir, work.path, 'commit', '-q', '-am', 'next');
    const r = await cli(dir, ['preflight', '--offline', '--json']);
    const doc = JSON.parse(r.stdout) as { findings: Finding[]; skipped: { check: string; why: string }[] };
    expect(doc.skipped.filter((s) => s.check === 'orphan-tag')).toEqual([]);
    expect(doc.findings.find((x) => x.code === 'orphan-tag')?.message).toContain('release 3.31.1-GA (tag rel_3_31_1_ga)');
  });

  it('ambiguous tags (two formats, each on several tags) learn nothing, and --verbose says why', async () => {
    const dir = await project('ambiguous', ['REL-3.29.0-GA', 'REL-3.29.1-GA', 'REL-3.30.0-GA', 'REL-3.30.1-GA', 'REL-3.30.2-GA']);
    const r = await cli(dir, ['preflight', '--offline', '--verbose', '--json']);
    const f = (JSON.parse(r.stdout) as { findings: Finding[] }).findings.find((x) => x.code === 'not-snapshot');
    expect(f?.fix).toContain('If 3.30.2-GA is already released');
    expect(r.stderr).toMatch(/No tag format learned from the project's 55 tags: the tags fit more than one format: rel_\{version\|lower\|\.=_\|-=_\} \(50 tags.*REL-\{version\} \(5/);
  });
});
