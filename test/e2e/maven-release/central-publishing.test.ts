import { describe, expect, it } from 'vitest';
import { testMavenOpts } from '../../helpers/maven-opts.js';
import { releaseProps, sandboxState, tail, useWorld } from './fixture.js';

/**
 * The portal-plugin route with the REAL org.sonatype.central:central-publishing-maven-plugin: the
 * project declares it (centralBaseUrl = the sandbox portal), release:perform builds and signs the
 * bundle without uploading it (-Darguments=-DskipUpload=true), relctl verifies that very zip and
 * sends it to the sandbox's Publisher API upload, then status and publish. When the project's own
 * release configuration makes the plugin upload, relctl reads the id the plugin printed instead.
 */
const w = useWorld();

const plugin = (releaseArguments?: string): string => `
  <build>
    <plugins>
      <plugin>
        <groupId>org.sonatype.central</groupId>
        <artifactId>central-publishing-maven-plugin</artifactId>
        <version>@CENTRAL_PUBLISHING@</version>
        <extensions>true</extensions>
        <configuration>
          <publishingServerId>central</publishingServerId>
          <centralBaseUrl>@PORTAL@</centralBaseUrl>
          <waitUntil>uploaded</waitUntil>
        </configuration>
      </plugin>${
        releaseArguments === undefined
          ? ''
          : `
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-release-plugin</artifactId>
        <configuration><arguments>${releaseArguments}</arguments></configuration>
      </plugin>`
      }
    </plugins>
  </build>`;

interface Summary {
  ok: boolean;
  steps: { id: string; status: string; reason?: string }[];
  context: { deploymentId: string; deploymentState: string; publishingRoute: string; bundle: string };
}

describe('relctl release on the central-publishing-maven-plugin route', () => {
  it('verifies the bundle the plugin built, uploads it to the Publisher API, waits for VALIDATED, publishes', async () => {
    const p = await w.project({ name: 'portal', build: plugin() });
    const r = await p.relctl(['release', '--yes', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout) as Summary;
    const steps = summary.steps.map((s) => `${s.id}:${s.status}`);
    expect(steps.slice(0, 7)).toEqual(['preflight:done', 'keys:done', 'prep:done', 'build:done', 'verify:done', 'upload:done', 'status:done']);
    // VALIDATED, not yet published: the post-release chores are not offered yet.
    expect(steps.slice(7)).toEqual(['notes:skipped', 'distribute:skipped', 'smoke:skipped', 'image:skipped', 'notify:skipped']);
    expect(summary.context).toMatchObject({ publishingRoute: 'portal-plugin', deploymentState: 'VALIDATED' });
    expect(summary.context.bundle).toMatch(/target\/checkout\/target\/central-publishing\/central-bundle\.zip$/);
    expect((await p.calls()).at(-1)).toEqual([
      '-B',
      'release:perform',
      ...releaseProps('1.0.0', '1.0.1-SNAPSHOT', 'e2e-parent-1.0.0'),
      '-Darguments=-DskipUpload=true',
      ...tail(p),
    ]);
    const state = await sandboxState(w.sandbox);
    const mine = state.deployments.filter((d) => d.namespace === p.namespace);
    expect(mine.map((d) => [d.id, d.name, d.state])).toEqual([[summary.context.deploymentId, 'e2e-parent-1.0.0', 'VALIDATED']]);
    // Nothing went through the staging API: the Publisher API upload makes no staging repository.
    expect(state.repositories.filter((x) => x.namespace === p.namespace)).toEqual([]);

    const published = await p.relctl(['publish', '--yes', '--deployment', summary.context.deploymentId]);
    expect(published.exitCode, published.stderr).toBe(0);
    const war = await fetch(`${w.sandbox.urls.publicRepoUrl}/${p.groupId.replaceAll('.', '/')}/e2e-webapp/1.0.0/e2e-webapp-1.0.0.war`);
    expect(war.status).toBe(200);
  });

  it("the project's release <arguments> win over relctl's: the plugin uploads, relctl takes the id it printed and skips its upload", async () => {
    const p = await w.project({ name: 'portalself', build: plugin('-DskipTests') });
    const r = await p.relctl(['release', '--yes', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('The plugin uploaded the bundle itself');
    const summary = JSON.parse(r.stdout) as Summary;
    expect(summary.steps.find((s) => s.id === 'upload')).toMatchObject({ status: 'skipped', reason: expect.stringContaining(summary.context.deploymentId) });
    const mine = (await sandboxState(w.sandbox)).deployments.filter((d) => d.namespace === p.namespace);
    // "Deployment" is the plugin's default deploymentName: this is the plugin's own upload, of groupId
    // org.e2eportalself.lib under the account's shorter namespace org.e2eportalself (issue 42).
    expect(mine.map((d) => [d.id, d.name, d.state])).toEqual([[summary.context.deploymentId, 'Deployment', 'VALIDATED']]);
    expect(p.groupId.startsWith(`${p.namespace}.`)).toBe(true);
    const status = await p.relctl(['status', '--json']);
    expect(status.exitCode, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ deploymentId: summary.context.deploymentId, state: 'VALIDATED' });
    // The Publisher API route leaves no staging repository: search names the namespace it asked and finds none open elsewhere.
    const search = await p.relctl(['search', '--json']);
    expect(JSON.parse(search.stdout)).toMatchObject({ groupId: p.groupId, repositories: [] });
    expect(JSON.parse(search.stdout)).not.toHaveProperty('openUnder');
  });

  it('a bundle that breaks a rule is never uploaded: no deployment, the namespace stays unblocked', async () => {
    const p = await w.project({ name: 'portalbad', build: plugin() });
    // The forked Maven inherits MAVEN_OPTS: maven-gpg-plugin skips, the bundle has no signatures.
    const r = await p.relctl(['release', '--yes', '--json'], { env: { MAVEN_OPTS: `${testMavenOpts} -Dgpg.skip=true` } });
    expect(r.exitCode).toBe(1);
    const summary = JSON.parse(r.stdout) as Summary & { error: { kind: string; message: string } };
    expect(summary.steps.map((s) => `${s.id}:${s.status}`).slice(3, 7)).toEqual(['build:done', 'verify:failed', 'upload:not-run', 'status:not-run']);
    expect(summary.error.kind).toBe('verify-failed');
    expect(summary.error.message).toContain('missing-signature');
    expect(summary.error.message).toContain('relctl did not upload it');
    expect((await sandboxState(w.sandbox)).deployments.filter((d) => d.namespace === p.namespace)).toEqual([]);
  });
});
