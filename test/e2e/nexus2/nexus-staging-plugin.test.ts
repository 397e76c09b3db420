import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { componentFiles, useWorld, type Project } from './fixture.js';

/**
 * The REAL org.sonatype.plugins:nexus-staging-maven-plugin (1.6.13 and 1.7.0, with extensions, so
 * `mvn deploy` is its deploy) against the sandbox's Nexus 2 staging API: its nexusUrl is the only
 * thing pointed at the sandbox.
 */
const w = useWorld();

const plugin = (version: 'NEXUS_STAGING' | 'NEXUS_STAGING_OLD', autoRelease: boolean): string => `
      <plugin>
        <groupId>org.sonatype.plugins</groupId>
        <artifactId>nexus-staging-maven-plugin</artifactId>
        <version>@${version}@</version>
        <extensions>true</extensions>
        <configuration>
          <serverId>central</serverId>
          <nexusUrl>@STAGING@</nexusUrl>
          <autoReleaseAfterClose>${autoRelease}</autoReleaseAfterClose>
        </configuration>
      </plugin>`;

function repositoryId(output: string): string {
  const id = /Created staging repository with ID "([^"]+)"/.exec(output)?.[1];
  if (id === undefined) throw new Error(`no staging repository in:\n${output.slice(-3000)}`);
  return id;
}

/** Every published file equals the one the build made (the POM: pom.xml), byte for byte. */
async function expectPublishedAsBuilt(p: Project): Promise<void> {
  for (const file of componentFiles) {
    const local = await readFile(file.endsWith('.pom') ? path.join(p.dir, 'pom.xml') : path.join(p.dir, 'target', file));
    expect(await p.published(file), file).toEqual(local);
  }
}

async function repositoryType(id: string): Promise<number | string> {
  const r = await fetch(`${w.sandbox.urls.stagingApiUrl}/service/local/staging/repository/${id}`, {
    headers: { accept: 'application/json', authorization: `Basic ${Buffer.from('sandbox:sandbox').toString('base64')}` },
  });
  return r.status === 200 ? ((await r.json()) as { type: string }).type : r.status;
}

describe('nexus-staging-maven-plugin against the sandbox', () => {
  it('1.7.0: deploy with autoReleaseAfterClose=false leaves one VALIDATED deployment; rc-list shows it; release (the JDK 17 string-array) publishes it byte for byte', async () => {
    const p = await w.project('ns170', plugin('NEXUS_STAGING', false));
    const deploy = await p.mvn(['clean', 'deploy']);
    expect(deploy.exitCode, deploy.output.slice(-3000)).toBe(0);
    const id = repositoryId(deploy.output);
    expect(id.startsWith(`${p.namespace}--`)).toBe(true);
    expect(await w.deployments(p.groupId)).toEqual([[`${id} (via OSSRH API Proxy)`, 'VALIDATED']]);
    expect(await repositoryType(id)).toBe('closed');

    const list = await p.mvn(['nexus-staging:rc-list']);
    expect(list.exitCode, list.output.slice(-3000)).toBe(0);
    expect(list.output).toMatch(new RegExp(`${id.replaceAll('.', '\\.')}\\s+CLOSED`));

    // On JDK 17 the plugin's XStream serialises the ids (an Arrays$ArrayList) only with java.util
    // opened, as its users run it; it then sends them as a `string-array`, which the sandbox reads.
    const release = await p.mvn(['nexus-staging:release'], '--add-opens=java.base/java.util=ALL-UNNAMED');
    expect(release.exitCode, release.output.slice(-3000)).toBe(0);
    expect(await w.deployments(p.groupId)).toEqual([[`${id} (via OSSRH API Proxy)`, 'PUBLISHED']]);
    expect(await repositoryType(id)).toBe('released');
    await expectPublishedAsBuilt(p);
  });

  it('1.6.13: deploy with autoReleaseAfterClose=true ends PUBLISHED, byte for byte', async () => {
    const p = await w.project('ns1613', plugin('NEXUS_STAGING_OLD', true));
    const deploy = await p.mvn(['clean', 'deploy']);
    expect(deploy.exitCode, deploy.output.slice(-3000)).toBe(0);
    const id = repositoryId(deploy.output);
    expect(await w.deployments(p.groupId)).toEqual([[`${id} (via OSSRH API Proxy)`, 'PUBLISHED']]);
    await expectPublishedAsBuilt(p);
  });

  it('1.6.13: a deploy that skips the close leaves the repository open; rc-close validates it; drop forgets it, not its deployment', async () => {
    const p = await w.project('nsclose', plugin('NEXUS_STAGING_OLD', false));
    const deploy = await p.mvn(['clean', 'deploy', '-DskipStagingRepositoryClose=true']);
    expect(deploy.exitCode, deploy.output.slice(-3000)).toBe(0);
    const id = repositoryId(deploy.output);
    expect(await repositoryType(id)).toBe('open');
    expect(await w.deployments(p.groupId)).toEqual([]);

    const close = await p.mvn(['nexus-staging:rc-close', `-DstagingRepositoryId=${id}`]);
    expect(close.exitCode, close.output.slice(-3000)).toBe(0);
    expect(await w.deployments(p.groupId)).toEqual([[`${id} (via OSSRH API Proxy)`, 'VALIDATED']]);

    const drop = await p.mvn(['nexus-staging:drop']);
    expect(drop.exitCode, drop.output.slice(-3000)).toBe(0);
    expect(await repositoryType(id)).toBe(404);
    expect(await w.deployments(p.groupId)).toEqual([[`${id} (via OSSRH API Proxy)`, 'VALIDATED']]);
  });

  it("1.7.0: an unsigned artifact fails the close with the portal's reason in the plugin's rule failure report", async () => {
    const p = await w.project('nsunsigned', plugin('NEXUS_STAGING', false));
    const deploy = await p.mvn(['clean', 'deploy', '-Dgpg.skip=true']);
    expect(deploy.exitCode).toBe(1);
    const id = repositoryId(deploy.output);
    expect(deploy.output).toContain('Nexus Staging Rules Failure Report');
    expect(deploy.output).toContain(`Rule "pkg:maven/${p.groupId}/greeting@1.0.0" failures`);
    expect(deploy.output).toContain('* Missing signature for file: greeting-1.0.0.jar');
    expect(await w.deployments(p.groupId)).toEqual([[`${id} (via OSSRH API Proxy)`, 'FAILED']]);
  });
});
