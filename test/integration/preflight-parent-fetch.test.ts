/**
 * Online, a parent POM found neither in the project nor in the local repository is fetched from
 * the public repository (the sandbox's, seeded) into relctl's own cache, and the checks that
 * depend on inherited values run; the user's local Maven repository is never written. A fetch
 * that gets no answer is exit 3, never a silent pass.
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { gitEnv, gitRepo, tempDir, type TempDir } from '../helpers/temp.js';
import { startSandbox } from './upload-helpers.js';

type Sb = Awaited<ReturnType<typeof startSandbox>>;
let sb: Sb;
let work: TempDir;
let project: string;

const parentPom = `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>org.jasig.parent</groupId>
  <artifactId>jasig-parent</artifactId>
  <version>41</version>
  <packaging>pom</packaging>
  <description>Parent without developers</description>
  <url>https://www.apereo.org</url>
  <licenses><license><name>Apache-2.0</name><url>https://www.apache.org/licenses/LICENSE-2.0</url></license></licenses>
  <scm><url>https://github.com/apereo/parent</url></scm>
  <distributionManagement>
    <repository><id>central</id><url>\${staging.url}</url></repository>
  </distributionManagement>
</project>
`;

const childPom = `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <parent>
    <groupId>org.jasig.parent</groupId>
    <artifactId>jasig-parent</artifactId>
    <version>41</version>
    <relativePath/>
  </parent>
  <groupId>org.jasig.portlet</groupId>
  <artifactId>news-portlet</artifactId>
  <version>5.1.0-SNAPSHOT</version>
  <name>News Portlet</name>
</project>
`;

beforeAll(async () => {
  work = await tempDir('relctl-parent-fetch-');
  const seed = path.join(work.path, 'seed');
  sb = await startSandbox({ seedRepo: seed });
  const dir = path.join(seed, 'org', 'jasig', 'parent', 'jasig-parent', '41');
  await mkdir(dir, { recursive: true });
  const staging = `${sb.urls.stagingApiUrl}/service/local/staging/deploy/maven2/`;
  await writeFile(path.join(dir, 'jasig-parent-41.pom'), parentPom.replace('${staging.url}', staging));
  project = path.join(work.path, 'project');
  await gitRepo(project, work.path, { 'pom.xml': childPom });
});
afterAll(async () => {
  await sb?.close();
  await work?.[Symbol.asyncDispose]();
});

function gitIsolation(): Record<string, string> {
  const { HOME: _home, ...rest } = gitEnv(work.path);
  return rest;
}

async function preflight(home: string, env: Record<string, string>, extra: string[] = []) {
  const r = await runCli(['preflight', '--json', '--skip', 'online', 'credentials', 'signing', '--cwd', project, ...extra], {
    home,
    env: { ...gitIsolation(), RELCTL_STAGING_API_URL: sb.urls.stagingApiUrl, ...env },
  });
  return { ...r, codes: r.stdout === '' ? [] : (JSON.parse(r.stdout) as { findings: { code: string }[] }).findings.map((f) => f.code) };
}

describe('preflight fetches unresolved parents online', () => {
  it('offline: parent-unresolved, and the inherited checks stay quiet', async () => {
    const home = path.join(work.path, 'home-offline');
    await mkdir(home, { recursive: true });
    const r = await preflight(home, {}, ['--offline']);
    expect(r.codes).toEqual(['parent-unresolved']);
    expect(r.exitCode).toBe(0);
  });

  it("online: fetches the parent into relctl's cache (not ~/.m2) and runs the checks it enables", async () => {
    const home = path.join(work.path, 'home-online');
    const cache = path.join(work.path, 'xdg-cache');
    await mkdir(home, { recursive: true });
    const r = await preflight(home, { RELCTL_PUBLIC_REPO_URL: sb.urls.publicRepoUrl, XDG_CACHE_HOME: cache });
    // The parent provides metadata and the distribution, but no developers: now that is known.
    expect(r.codes, r.stdout + r.stderr).toEqual(['missing-developers']);
    expect(r.exitCode).toBe(1);
    expect(existsSync(path.join(cache, 'relctl', 'parents', 'org', 'jasig', 'parent', 'jasig-parent', '41', 'jasig-parent-41.pom'))).toBe(true);
    expect(existsSync(path.join(home, '.m2'))).toBe(false);
    // A later offline run uses the cached parent.
    const again = await preflight(home, { XDG_CACHE_HOME: cache }, ['--offline']);
    expect(again.codes).toEqual(['missing-developers']);
  });

  it('online: a public repository that does not answer is exit 3, not a pass', async () => {
    const closed = await new Promise<number>((resolve) => {
      const s = net.createServer();
      s.listen(0, '127.0.0.1', () => {
        const port = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(port));
      });
    });
    const home = path.join(work.path, 'home-down');
    await mkdir(home, { recursive: true });
    const r = await preflight(home, { RELCTL_PUBLIC_REPO_URL: `http://127.0.0.1:${closed}/repo`, XDG_CACHE_HOME: path.join(work.path, 'cache-down') });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain('jasig-parent');
    expect(await readdir(path.join(work.path)).then((names) => names.includes('cache-down'))).toBe(false);
  });
});
