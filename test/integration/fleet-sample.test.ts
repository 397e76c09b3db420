import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, runCli } from '../helpers/cli.js';
import { git, gitEnv, tempDir, type TempDir } from '../helpers/temp.js';

const sample = path.join(repoRoot, 'test/fixtures/fleet-sample');

interface Repo {
  name: string;
  verdict: string;
  route: string;
  blocking: string[];
  fixIn: string[];
  parents: { coordinates: string; repository: string | null }[];
  findings: { code: string; fix: string }[];
}

/**
 * The fleet audit on real repositories (build files only; test/fixtures/fleet-sample/README.md):
 * the Bedework parent and six children that inherit it, and four Apereo libraries on parents
 * outside the fleet, before and after the OSSRH retirement. What the audit says matches what
 * their histories show happened.
 */
describe('relctl fleet audit on the real Apereo and Bedework sample', () => {
  let tmp: TempDir;
  let home: string;

  /** Bare repositories from one cut's bundles, and a repos file naming them. */
  async function cut(name: 'pre' | 'head'): Promise<string> {
    const root = path.join(tmp.path, name);
    const lines: string[] = [];
    for (const bundle of (await readdir(path.join(sample, name))).filter((f) => f.endsWith('.bundle'))) {
      const [owner, repo] = bundle.replace(/\.bundle$/, '').split('+') as [string, string];
      const bare = path.join(root, owner, `${repo}.git`);
      await git(tmp.path, home, 'clone', '-q', '--bare', path.join(sample, name, bundle), bare);
      lines.push(`${owner}/${repo} ${bare}`);
    }
    await writeFile(path.join(root, 'repos.txt'), lines.join('\n') + '\n');
    return path.join(root, 'repos.txt');
  }

  async function audit(name: 'pre' | 'head'): Promise<Map<string, Repo>> {
    const repos = await cut(name);
    // The two parents outside the fleet come from a local repository (offline: nothing fetched).
    const r = await runCli(['fleet', 'audit', '--repos', repos, '--workdir', path.join(tmp.path, `work-${name}`), '--offline', '--local-repo', path.join(sample, 'parents'), '--json'], { cwd: tmp.path, home, env: gitEnv(home) });
    expect(r.exitCode, r.stderr).toBe(1);
    return new Map((JSON.parse(r.stdout) as { repositories: Repo[] }).repositories.map((x) => [x.name, x]));
  }

  beforeAll(async () => {
    tmp = await tempDir('relctl-fleet-sample-');
    home = path.join(tmp.path, 'home');
  });
  afterAll(async () => {
    await tmp[Symbol.asyncDispose]();
  });

  it('before the retirement: the parent blocks, its children wait on it, the Apereo libraries fix their own', async () => {
    const fleet = await audit('pre');
    // The parent's new deploy URL is the portal's web host, and its portal plugin is only managed, not used.
    expect(fleet.get('Bedework/bedework-parent')).toMatchObject({ verdict: 'blocked', blocking: ['distribution-url'], fixIn: [] });
    // Its maintainers' own path first: activate the managed plugin (as they did for tag 200), not a staging-API URL.
    const fix = fleet.get('Bedework/bedework-parent')!.findings.find((f) => f.code === 'distribution-url')!.fix;
    expect(fix).toMatch(/^Activate central-publishing-maven-plugin in <build><plugins>: it is configured in <pluginManagement> only \(pom\.xml:\d+\)/);
    expect(fix.indexOf('<build><plugins>')).toBeLessThan(fix.indexOf('ossrh-staging-api'));
    for (const child of ['bw-access', 'bw-base', 'bw-util', 'bw-util-network', 'bw-webdav']) {
      expect(fleet.get(`Bedework/${child}`), child).toMatchObject({
        verdict: 'waits-on-parent',
        fixIn: ['Bedework/bedework-parent'],
        parents: [{ coordinates: 'org.bedework:bedework-parent:200-SNAPSHOT', repository: 'Bedework/bedework-parent' }],
      });
    }
    // 92-SNAPSHOT: a parent version no tag, tip or Maven repository has.
    expect(fleet.get('Bedework/bw-util-logging')).toMatchObject({ verdict: 'blocked', blocking: ['parent-unresolved'] });
    // Parents outside the fleet: the retired host they pass on is each library's own to override.
    for (const lib of ['java-cas-client', 'person-directory', 'inspektr', 'cas-server-security-filter']) {
      const repo = fleet.get(`apereo/${lib}`)!;
      expect(repo.verdict, lib).toBe('blocked');
      expect(repo.blocking, lib).toContain('legacy-staging-host');
      expect(repo.fixIn, lib).toEqual([]);
      expect(repo.parents[0]!.repository).toBeNull();
    }
  });

  it('after it: children on released parent tags are ready, a child on a vanished snapshot parent is blocked', async () => {
    const fleet = await audit('head');
    // Only a comment still names oss.sonatype.org in the parent: not a finding.
    expect(fleet.get('Bedework/bedework-parent')).toMatchObject({ verdict: 'ready', route: 'portal-plugin' });
    expect(fleet.get('Bedework/bw-util')).toMatchObject({ verdict: 'ready', route: 'portal-plugin', parents: [{ coordinates: 'org.bedework:bedework-parent:259', repository: 'Bedework/bedework-parent' }] });
    for (const child of ['bw-access', 'bw-base', 'bw-util-logging', 'bw-webdav']) expect(fleet.get(`Bedework/${child}`)?.verdict, child).toBe('ready');
    expect(fleet.get('Bedework/bw-util-network')).toMatchObject({ verdict: 'blocked', blocking: ['parent-unresolved'] });
    // java-cas-client moved to the portal plugin; dormant person-directory did not.
    expect(fleet.get('apereo/java-cas-client')).toMatchObject({ verdict: 'ready', route: 'portal-plugin' });
    expect(fleet.get('apereo/person-directory')?.blocking).toEqual(['legacy-staging-host', 'missing-developers', 'missing-pom-metadata']);
  });
});
