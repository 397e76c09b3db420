import { describe, expect, it } from 'vitest';
import { testMavenOpts } from '../../helpers/maven-opts.js';
import { mavenCache, releaseProps, sandboxState, tail, useWorld } from './fixture.js';

/**
 * The nexus-staging route with the REAL org.sonatype.plugins:nexus-staging-maven-plugin 1.7.0
 * (scripts/maven-cache.sh fetches it): the project declares it with extensions (nexusUrl = the
 * sandbox's staging API), release:perform stages locally (-Darguments=-DskipRemoteStaging=true),
 * relctl verifies those files, then the plugin's deploy-staged uploads and closes the staging
 * repository, and relctl follows it to its portal deployment "<id> (via OSSRH API Proxy)".
 */
const w = useWorld();

const plugin = `
  <build>
    <plugins>
      <plugin>
        <groupId>org.sonatype.plugins</groupId>
        <artifactId>nexus-staging-maven-plugin</artifactId>
        <version>1.7.0</version>
        <extensions>true</extensions>
        <configuration>
          <serverId>central</serverId>
          <nexusUrl>@STAGING@/</nexusUrl>
          <autoReleaseAfterClose>false</autoReleaseAfterClose>
        </configuration>
      </plugin>
    </plugins>
  </build>`;

interface Summary {
  ok: boolean;
  steps: { id: string; status: string; reason?: string }[];
  context: { deploymentId: string; deploymentState: string; publishingRoute: string; repositoryKey: string; stagingRepositoryIds: string[] };
  error?: { kind: string; message: string };
}

describe('relctl release on the nexus-staging-maven-plugin route', () => {
  it('verifies what the plugin staged locally, lets it upload and close, follows the repository to its VALIDATED deployment, publishes', async () => {
    const p = await w.project({ name: 'nexusroute', build: plugin });
    const r = await p.relctl(['release', '--yes', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout) as Summary;
    expect(summary.steps.slice(0, 7).map((s) => `${s.id}:${s.status}`)).toEqual(['preflight:done', 'keys:done', 'prep:done', 'build:done', 'verify:done', 'upload:done', 'status:done']);
    expect(summary.context).toMatchObject({ publishingRoute: 'nexus-staging', deploymentState: 'VALIDATED' });
    const id = summary.context.repositoryKey;
    // Keyed by the namespace the account holds (org.e2enexusroute), not the groupId below it.
    expect(id.startsWith(`${p.namespace}--`), id).toBe(true);
    const calls = await p.calls();
    expect(calls.at(-2)).toEqual(['-B', 'release:perform', ...releaseProps('1.0.0', '1.0.1-SNAPSHOT', 'e2e-parent-1.0.0'), '-Darguments=-DskipRemoteStaging=true', ...tail(p)]);
    // deploy-staged runs in the release checkout; no manual upload call was made.
    expect(calls.at(-1)).toEqual(['-B', 'nexus-staging:deploy-staged', ...tail(p)]);
    const state = await sandboxState(w.sandbox);
    const mine = state.deployments.filter((d) => d.namespace === p.namespace);
    expect(mine.map((d) => [d.id, d.name, d.state])).toEqual([[summary.context.deploymentId, `${id} (via OSSRH API Proxy)`, 'VALIDATED']]);
    expect(state.repositories.filter((x) => x.namespace === p.namespace).map((x) => x.key)).toEqual([id]);

    // Resumed after the fact: nothing is uploaded twice (the plugin's context file names the repository).
    const again = await p.relctl(['run', 'upload', '--yes', '--json']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect((await sandboxState(w.sandbox)).deployments.filter((d) => d.namespace === p.namespace)).toHaveLength(1);

    const published = await p.relctl(['publish', '--yes', '--deployment', summary.context.deploymentId]);
    expect(published.exitCode, published.stderr).toBe(0);
    const war = await fetch(`${w.sandbox.urls.publicRepoUrl}/${p.groupId.replaceAll('.', '/')}/e2e-webapp/1.0.0/e2e-webapp-1.0.0.war`);
    expect(war.status).toBe(200);
  });

  it('an unsigned release fails verify on the locally staged files: nothing reaches the staging API or the portal', async () => {
    const p = await w.project({ name: 'nexusbad', build: plugin });
    const r = await p.relctl(['release', '--yes', '--json'], { env: { MAVEN_OPTS: `${testMavenOpts} -Dgpg.skip=true` } });
    expect(r.exitCode).toBe(1);
    const summary = JSON.parse(r.stdout) as Summary;
    expect(summary.steps.map((s) => `${s.id}:${s.status}`).slice(3, 7)).toEqual(['build:done', 'verify:failed', 'upload:not-run', 'status:not-run']);
    expect(summary.error?.kind).toBe('verify-failed');
    expect(summary.error?.message).toContain('missing-signature');
    expect(summary.error?.message).toContain('staged it locally only');
    const state = await sandboxState(w.sandbox);
    expect(state.deployments.filter((d) => d.namespace === p.namespace)).toEqual([]);
    expect(state.repositories.filter((d) => d.namespace === p.namespace)).toEqual([]);
  });

  it("rehearse: the copy's <nexusUrl> points at the rehearsal's own sandbox, the real plugin stages, relctl verifies, deploy-staged closes, the portal says VALIDATED", async () => {
    const p = await w.project({ name: 'nexusrehearse', build: plugin });
    const r = await p.relctl(['rehearse', '--sign', '--local-repo', mavenCache, '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const result = JSON.parse(r.stdout) as { verdict: string; build: { commands: string[]; notes: string[] }; chain: { steps: { id: string; status: string }[] } };
    expect(result.verdict).toBe('VALIDATED');
    expect(result.build.commands.at(-1)).toContain('release:perform');
    expect(result.build.commands.at(-1)).toContain('-Darguments=-DskipRemoteStaging=true');
    // (The fixture's token password is the word the rehearsal's note uses for its sandbox: output masks it.)
    expect(result.build.notes.join('\n')).toMatch(/nexus-staging-maven-plugin's <nexusUrl> points at the .* \(http:\/\/127\.0\.0\.1:\d+\/staging\/\) in the copy/);
    expect(result.chain.steps.map((s) => `${s.id}:${s.status}`)).toEqual(['verify:done', 'upload:done', 'status:done']);
    // The project's own nexusUrl (the test's sandbox) was never reached.
    const state = await sandboxState(w.sandbox);
    expect(state.repositories.filter((x) => x.namespace === p.namespace)).toEqual([]);
  });
});
