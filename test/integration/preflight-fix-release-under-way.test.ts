/**
 * `relctl preflight --fix` never bumps the version of a release that is under way: the release tag
 * at HEAD with no development commit after it (the release commit made, the deploy not yet run).
 * The built CLI on real git repositories (annotated and lightweight tags), HOME isolated.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { git, gitEnv, tempDir, type TempDir } from '../helpers/temp.js';

const temps: TempDir[] = [];
afterEach(async () => {
  for (const t of temps.splice(0)) await t[Symbol.asyncDispose]();
});

const pom = (version: string): string => `<?xml version="1.0" encoding="UTF-8"?>
<project>
  <modelVersion>4.0.0</modelVersion>
  <groupId>org.ex</groupId>
  <artifactId>demo</artifactId>
  <version>${version}</version>
  <name>Demo</name>
  <description>Demo component</description>
  <url>https://example.org/demo</url>
  <licenses><license><name>Apache-2.0</name><url>https://www.apache.org/licenses/LICENSE-2.0</url></license></licenses>
  <scm><url>https://example.org/git/demo</url></scm>
  <developers><developer><name>Ada</name><organization>Ex</organization><organizationUrl>https://example.org/c</organizationUrl></developer></developers>
  <distributionManagement>
    <repository><id>central</id><url>https://ossrh-staging-api.central.sonatype.com/service/local/staging/deploy/maven2/</url></repository>
  </distributionManagement>
</project>
`;
const settings = '<settings><servers><server><id>central</id><username>${env.CENTRAL_TOKEN_USERNAME}</username><password>${env.CENTRAL_TOKEN_PASSWORD}</password></server></servers></settings>\n';

interface Repo {
  dir: string;
  home: string;
  env: Record<string, string>;
}

/** A committed project at version `version`, with a HOME that has the <server>. */
async function repo(version: string): Promise<Repo> {
  const t = await tempDir('relctl-under-way-');
  temps.push(t);
  const dir = path.join(t.path, 'project');
  const home = path.join(t.path, 'home');
  await mkdir(dir, { recursive: true });
  await mkdir(path.join(home, '.m2'), { recursive: true });
  await writeFile(path.join(dir, 'pom.xml'), pom(version));
  await writeFile(path.join(home, '.m2', 'settings.xml'), settings);
  await git(dir, home, 'init', '-q', '-b', 'main');
  await git(dir, home, 'add', '-A');
  await git(dir, home, 'commit', '-q', '-m', `release ${version}`);
  const { HOME: _h, ...env } = gitEnv(home);
  return { dir, home, env: { ...env, CENTRAL_TOKEN_USERNAME: 'u', CENTRAL_TOKEN_PASSWORD: 'p' } };
}

type FixDoc = { fixed: { file: string; code: string; before: string; after: string }[]; declined: { code: string; why: string }[] };
const fixJson = async (r: Repo, ...args: string[]): Promise<FixDoc> => {
  const out = await runCli(['preflight', '--offline', '--skip', 'signing', '--fix', '--json', '--cwd', r.dir, ...args], { home: r.home, env: r.env });
  return JSON.parse(out.stdout) as FixDoc;
};

describe('preflight --fix and a release under way', () => {
  it('an annotated release tag at HEAD: the bump is declined, saying to finish the release or pass --bump-released; the POM is untouched', async () => {
    const r = await repo('1.4.2');
    await git(r.dir, r.home, 'tag', '-a', 'v1.4.2', '-m', 'v1.4.2');
    const doc = await fixJson(r);
    expect(doc.fixed.filter((f) => f.code === 'not-snapshot')).toEqual([]);
    expect(doc.declined).toContainEqual({
      code: 'not-snapshot',
      file: 'pom.xml',
      line: 6,
      why: "1.4.2 is tagged v1.4.2 at HEAD and no development commit follows it, so its release is not finished: finish it first (relctl release --resume, or the project's own deploy of v1.4.2), or run relctl preflight --fix --bump-released to move to 1.4.3-SNAPSHOT anyway",
    });
    expect(await readFile(path.join(r.dir, 'pom.xml'), 'utf8')).toBe(pom('1.4.2'));
  });

  it('--bump-released moves it on anyway', async () => {
    const r = await repo('1.4.2');
    await git(r.dir, r.home, 'tag', 'v1.4.2');
    const doc = await fixJson(r, '--bump-released');
    expect(doc.fixed).toContainEqual(expect.objectContaining({ file: 'pom.xml', code: 'not-snapshot', before: '1.4.2', after: '1.4.3-SNAPSHOT' }));
    expect(await readFile(path.join(r.dir, 'pom.xml'), 'utf8')).toBe(pom('1.4.3-SNAPSHOT'));
  });

  it('a commit after the tag (the release done, development on): bumped without the flag', async () => {
    const r = await repo('1.4.2');
    await git(r.dir, r.home, 'tag', 'v1.4.2');
    await writeFile(path.join(r.dir, 'NOTES.md'), 'next\n');
    await git(r.dir, r.home, 'add', '-A');
    await git(r.dir, r.home, 'commit', '-q', '-m', 'notes');
    const doc = await fixJson(r);
    expect(doc.fixed).toContainEqual(expect.objectContaining({ code: 'not-snapshot', after: '1.4.3-SNAPSHOT' }));
  });

  it('--bump-released without --fix is a usage error naming --fix', async () => {
    const r = await repo('1.4.2');
    const out = await runCli(['preflight', '--offline', '--bump-released', '--cwd', r.dir], { home: r.home, env: r.env });
    expect(out.exitCode).toBe(2);
    expect(out.stderr).toContain('--bump-released only applies to relctl preflight --fix');
  });
});
