import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { componentFiles, useWorld, type Project } from './fixture.js';

/**
 * The REAL org.jreleaser:jreleaser-maven-plugin (`jreleaser:deploy`) against the sandbox: its
 * `nexus2` deployer (the client gradle-nexus's endpoints share) on the Nexus 2 staging API and its
 * `mavenCentral` deployer on the Publisher API, unchanged but for the URLs. The build stages the
 * signed files in target/staging-deploy as JReleaser's guide says; pomchecker (a download from
 * GitHub) is off.
 */
const w = useWorld();

const jreleaser = (deployer: string): string => `
      <plugin>
        <groupId>org.jreleaser</groupId>
        <artifactId>jreleaser-maven-plugin</artifactId>
        <version>@JRELEASER@</version>
        <configuration>
          <jreleaser>
            <deploy>
              <maven>${deployer}
              </maven>
            </deploy>
          </jreleaser>
        </configuration>
      </plugin>`;

const common = `
                    <active>ALWAYS</active>
                    <username>sandbox</username>
                    <password>sandbox</password>
                    <sign>false</sign>
                    <verifyPom>false</verifyPom>
                    <verifyUrl>@REPO@/{{path}}/{{filename}}</verifyUrl>
                    <stagingRepositories><stagingRepository>target/staging-deploy</stagingRepository></stagingRepositories>`;

const nexus2 = `
                <nexus2>
                  <sandbox>${common}
                    <url>@STAGING@service/local</url>
                    <snapshotUrl>@STAGING@service/local/snapshots</snapshotUrl>
                    <closeRepository>true</closeRepository>
                    <releaseRepository>true</releaseRepository>
                    <transitionDelay>1</transitionDelay>
                  </sandbox>
                </nexus2>`;

const mavenCentral = `
                <mavenCentral>
                  <sandbox>${common}
                    <url>@PORTAL@/api/v1/publisher</url>
                    <retryDelay>1</retryDelay>
                  </sandbox>
                </mavenCentral>`;

async function stageAndDeploy(p: Project, ...extra: string[]): Promise<{ exitCode: number; output: string }> {
  const staged = await p.mvn(['clean', 'deploy', '-DaltDeploymentRepository=local::file:./target/staging-deploy', ...extra]);
  expect(staged.exitCode, staged.output.slice(-3000)).toBe(0);
  return p.mvn(['jreleaser:deploy']);
}

async function expectPublishedAsStaged(p: Project): Promise<void> {
  const staged = path.join(p.dir, 'target', 'staging-deploy', ...p.groupId.split('.'), 'greeting', '1.0.0');
  for (const file of componentFiles) expect(await p.published(file), file).toEqual(await readFile(path.join(staged, file)));
}

describe('JReleaser against the sandbox', () => {
  it('nexus2: start, deploy by id, close, release; the deployment "<id> (via OSSRH API Proxy)" is PUBLISHED byte for byte', async () => {
    const p = await w.project('jrnexus2', jreleaser(nexus2));
    const r = await stageAndDeploy(p);
    expect(r.exitCode, r.output.slice(-3000)).toBe(0);
    const id = /Closing staging repository (\S+)/.exec(r.output)?.[1];
    expect(id?.startsWith(`${p.namespace}--`), r.output.slice(-3000)).toBe(true);
    expect(await w.deployments(p.groupId)).toEqual([[`${id} (via OSSRH API Proxy)`, 'PUBLISHED']]);
    expect(await w.publishingTypes(p.groupId)).toEqual(['user_managed']);
    await expectPublishedAsStaged(p);
  });

  it("nexus2: an unsigned artifact fails the close, and JReleaser's error carries the portal's sentences from the activity", async () => {
    const p = await w.project('jrunsigned', jreleaser(nexus2));
    const r = await stageAndDeploy(p, '-Dgpg.skip=true');
    expect(r.exitCode).toBe(1);
    expect(r.output).toMatch(/Expected one of \[CLOSED\], actual is OPEN/);
    expect(r.output).toContain('Missing signature for file: greeting-1.0.0.jar');
    expect(await w.deployments(p.groupId)).toEqual([[expect.stringMatching(/ \(via OSSRH API Proxy\)$/), 'FAILED']]);
  });

  it('mavenCentral: the bundle without publishingType waits VALIDATED, JReleaser publishes it, byte for byte', async () => {
    const p = await w.project('jrcentral', jreleaser(mavenCentral));
    const r = await stageAndDeploy(p);
    expect(r.exitCode, r.output.slice(-3000)).toBe(0);
    expect(r.output).toMatch(/uploaded as deployment [0-9a-f-]{36}/);
    expect(await w.deployments(p.groupId)).toEqual([[expect.any(String), 'PUBLISHED']]);
    // Published by JReleaser's publish call after VALIDATED, not by the upload.
    expect(await w.publishingTypes(p.groupId)).toEqual(['user_managed']);
    await expectPublishedAsStaged(p);
  });
});
