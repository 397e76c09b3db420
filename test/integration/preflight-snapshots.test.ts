import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { writeMavenSettings } from '../helpers/maven.js';
import { gitRepo, tempDir } from '../helpers/temp.js';
import { pomXml } from './upload-helpers.js';

/**
 * Snapshots on the portal (issue 42 item 5), through `relctl preflight`: a snapshot repository
 * aimed at the portal's snapshot repository gets the reminder that SNAPSHOTs are enabled per
 * namespace, and its `<server>` is checked as the release repository's is.
 */
interface Doc {
  findings: { code: string; severity: string; message: string; fix: string; file?: string; line?: number }[];
}

function withDistribution(snapshotUrl: string, snapshotId = 'central-snapshots'): string {
  return pomXml({ groupId: 'org.example.lib', artifactId: 'demo', version: '1.0.1-SNAPSHOT' }).replace(
    '</project>',
    `  <distributionManagement>
    <repository><id>central</id><url>https://ossrh-staging-api.central.sonatype.com/service/local/staging/deploy/maven2/</url></repository>
    <snapshotRepository><id>${snapshotId}</id><url>${snapshotUrl}</url></snapshotRepository>
  </distributionManagement>
</project>`,
  );
}

async function preflight(dir: string, home: string, extra: string[] = []): Promise<{ exitCode: number; doc: Doc }> {
  const r = await runCli(['preflight', '--offline', '--skip', 'signing', '--json', '--cwd', dir, ...extra], { home });
  return { exitCode: r.exitCode, doc: JSON.parse(r.stdout) as Doc };
}

describe("preflight and the portal's snapshot repository", () => {
  it('reminds that SNAPSHOTs must be enabled for the namespace and checks the snapshot <server>', async () => {
    await using t = await tempDir();
    const dir = path.join(t.path, 'p');
    await gitRepo(dir, t.path, { 'pom.xml': withDistribution('https://central.sonatype.com/repository/maven-snapshots/') });
    await writeMavenSettings(path.join(t.path, '.m2', 'settings.xml'), { id: 'central', username: 'tok-user', password: 'tok-pass' });

    const { exitCode, doc } = await preflight(dir, t.path);
    expect(exitCode).toBe(1);
    const reminder = doc.findings.find((f) => f.code === 'snapshots-need-enabling');
    expect(reminder).toMatchObject({ severity: 'warning', file: 'pom.xml' });
    expect(reminder!.message).toContain('403 Forbidden');
    expect(reminder!.fix).toContain('https://central.sonatype.com/publishing/namespaces');
    expect(reminder!.fix).toContain('Enable SNAPSHOTs');
    const server = doc.findings.filter((f) => f.code === 'server-id-mismatch');
    expect(server).toHaveLength(1);
    expect(server[0]!.message).toContain('snapshot repository id "central-snapshots"');
    expect(server[0]!.fix).toContain('<id>central-snapshots</id>');

    // With a <server> for it, only the reminder is left (a warning: exit 0).
    const settings = path.join(t.path, '.m2', 'settings.xml');
    await writeFile(settings, (await readFile(settings, 'utf8')).replace('</servers>', '<server><id>central-snapshots</id><username>tok-user</username><password>tok-pass</password></server></servers>'));
    const fixed = await preflight(dir, t.path);
    expect(fixed.doc.findings.map((f) => f.code)).toEqual(['snapshots-need-enabling']);
    expect(fixed.exitCode).toBe(0);
  });

  it('says nothing of another host\'s maven-snapshots (a company Nexus)', async () => {
    await using t = await tempDir();
    const dir = path.join(t.path, 'p');
    await gitRepo(dir, t.path, { 'pom.xml': withDistribution('https://nexus.example.com/repository/maven-snapshots/', 'central') });
    await writeMavenSettings(path.join(t.path, '.m2', 'settings.xml'), { id: 'central', username: 'tok-user', password: 'tok-pass' });
    const { doc } = await preflight(dir, t.path);
    expect(doc.findings.map((f) => f.code)).not.toContain('snapshots-need-enabling');
  });

  it('preflight --fix moves a retired snapshot repository to the portal and then says SNAPSHOTs must be enabled', async () => {
    await using t = await tempDir();
    const dir = path.join(t.path, 'p');
    await gitRepo(dir, t.path, { 'pom.xml': withDistribution('https://s01.oss.sonatype.org/content/repositories/snapshots/', 'central') });
    await writeMavenSettings(path.join(t.path, '.m2', 'settings.xml'), { id: 'central', username: 'tok-user', password: 'tok-pass' });
    const r = await runCli(['preflight', '--fix', '--allow-dirty', '--offline', '--skip', 'signing', '--json', '--cwd', dir], { home: t.path });
    const doc = JSON.parse(r.stdout) as Doc & { fixed: { code: string; after: string }[] };
    expect(doc.fixed).toContainEqual(expect.objectContaining({ code: 'legacy-staging-host', after: expect.stringContaining('central.sonatype.com/repository/maven-snapshots/') as unknown as string }));
    expect(doc.findings.map((f) => f.code)).toContain('snapshots-need-enabling');
  });
});
