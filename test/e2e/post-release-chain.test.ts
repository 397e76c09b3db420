import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/server.js';
import { repoRoot, runCli } from '../helpers/cli.js';
import { freePort } from '../helpers/ports.js';
import { buildahStorageEnv, startRegistry } from '../helpers/registry.js';
import { git, gitRepo, tempDir, writeTree } from '../helpers/temp.js';
import { demoRepo } from '../integration/release-fixture.js';

/**
 * The post-release chores as one chain on the bundled example: the release notes and the release
 * page, the distribution pull request on
 * the sandbox's GitHub stand-in, the smoke test of a local distribution checkout (fake gradlew,
 * real HTTP server), the demo image with real buildah into Debian's docker-registry on loopback,
 * and the announcement through the sandbox's SMTP listener.
 */
describe('relctl run notes distribute smoke image notify', () => {
  it('finishes a release on the bundled example', async () => {
    await using t = await tempDir('relctl-post-chain-');
    const home = path.join(t.path, 'home');
    // The public repository has the release (post-release chores refuse a version nobody can download).
    const seed = path.join(t.path, 'seed');
    await writeTree(seed, { 'org/example/relctl/relctl-demo/1.0.0/relctl-demo-1.0.0.pom': '<project><groupId>org.example.relctl</groupId><artifactId>relctl-demo</artifactId><version>1.0.0</version></project>\n' });
    const sandbox = await startSandbox({ seedRepo: seed, smtpAuth: { user: 'mailer', password: 'smtp-pass-e2e' } });
    await mkdir(path.join(t.path, 'registry'));
    await using registry = await startRegistry(path.join(t.path, 'registry'), { user: 'bot', password: 'registry-pass-e2e' });
    try {
      const api = (sandbox.urls as unknown as { githubApiUrl: string }).githubApiUrl;
      const token = 'ghp_ChainCanary000000000000000000000000';
      const props = 'uPortalVersion=5.14.0\nrelctlDemoVersion=0.9.0\n';
      // The distribution on the host (for the pull request) and a local checkout (for smoke and image).
      const put = await fetch(`${api}/repos/example/portal-dist/contents/gradle.properties`, {
        method: 'PUT',
        headers: { authorization: `token ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ message: 'versions', content: Buffer.from(props).toString('base64') }),
      });
      expect(put.status).toBe(201);
      // The project's repository on the host has the release tag (the release pushed it).
      const auth = { authorization: `token ${token}`, 'content-type': 'application/json' };
      await fetch(`${api}/repos/example/relctl-demo/contents/README.md`, { method: 'PUT', headers: auth, body: JSON.stringify({ message: 'readme', content: Buffer.from('demo\n').toString('base64') }) });
      const head = (await (await fetch(`${api}/repos/example/relctl-demo/git/ref/heads/main`, { headers: auth })).json()) as { object: { sha: string } };
      const tagged = await fetch(`${api}/repos/example/relctl-demo/git/refs`, { method: 'POST', headers: auth, body: JSON.stringify({ ref: 'refs/tags/relctl-demo-1.0.0', sha: head.object.sha }) });
      expect(tagged.status).toBe(201);
      const checkout = path.join(t.path, 'portal-dist');
      const fixture = path.join(repoRoot, 'test/fixtures/distribution');
      await gitRepo(checkout, home, {
        'gradle.properties': props,
        'server.mjs': await readFile(path.join(fixture, 'server.mjs')),
        'docker/Dockerfile': 'FROM scratch\nARG VERSION\nLABEL version=$VERSION\nCOPY gradle.properties /portal.properties\n',
        'docker/gradle.properties': props,
      });
      await copyFile(path.join(fixture, 'gradlew'), path.join(checkout, 'gradlew'));
      await git(checkout, home, 'add', 'gradlew');
      await git(checkout, home, 'update-index', '--chmod=+x', 'gradlew');
      await git(checkout, home, 'commit', '-q', '-m', 'wrapper');

      const project = path.join(t.path, 'demo');
      await demoRepo(project, home);
      await git(project, home, 'tag', 'relctl-demo-0.9.0');
      await git(project, home, 'commit', '-q', '--allow-empty', '-m', 'feat: the demo greets in French');
      await git(project, home, 'tag', 'relctl-demo-1.0.0');
      const port = await freePort();
      await writeFile(
        path.join(project, 'relctl.config.json'),
        JSON.stringify({
          distribution: {
            repo: 'example/portal-dist',
            smoke: { dir: checkout, healthUrl: `http://127.0.0.1:${port}/`, deadline: 20 },
            image: { name: 'example/portal-demo', registry: registry.host, context: 'docker' },
          },
          mail: { from: 'release@example.org', dev: 'dev@example.org', user: 'users@example.org' },
          tracker: { repo: 'example/relctl-demo' },
        }),
      );
      await git(project, home, 'add', '-A');
      await git(project, home, 'commit', '-q', '-m', 'chore: relctl config');

      const state = path.join(t.path, 'state');
      const r = await runCli(['run', 'notes', 'distribute', 'smoke', 'image', 'notify', '--json', '--cwd', project], {
        home,
        timeoutMs: 180_000,
        env: {
          ...(await buildahStorageEnv(t.path)),
          RELCTL_GITHUB_API_URL: api,
          RELCTL_GITHUB_TOKEN: token,
          RELCTL_SMTP_URL: sandbox.urls.smtpUrl!,
          RELCTL_REGISTRY_USERNAME: 'bot',
          RELCTL_REGISTRY_PASSWORD: 'registry-pass-e2e',
          RELCTL_PUBLIC_REPO_URL: sandbox.urls.publicRepoUrl,
          SMOKE_STATE: state,
          SMOKE_PORT: String(port),
          SMOKE_PIN: 'relctlDemoVersion',
        },
      });
      try {
        expect(r.exitCode, r.stderr).toBe(0);
        const summary = JSON.parse(r.stdout) as { ok: boolean; steps: { id: string; status: string }[]; context: Record<string, string> };
        expect(summary.steps.map((s) => `${s.id}:${s.status}`)).toEqual(['notes:done', 'distribute:done', 'smoke:done', 'image:done', 'notify:done']);
        expect(summary.context.releaseUrl).toMatch(/\/example\/relctl-demo\/releases\/tag\/relctl-demo-1\.0\.0$/);
        expect(summary.context.pullRequestUrl).toMatch(/\/example\/portal-dist\/pull\/1$/);
        expect(summary.context.imageDigest).toMatch(/^sha256:/);
        expect(summary.context.announced).toBe('sent');

        const pulls = (await (await fetch(`${api}/repos/example/portal-dist/pulls`)).json()) as { title: string; body: string }[];
        expect(pulls.map((p) => p.title)).toEqual(['chore: relctl-demo 1.0.0']);
        expect(pulls[0]!.body).toContain('## Features\n\n- the demo greets in French');
        const mails = (await (await fetch(`http://127.0.0.1:${sandbox.port}/sandbox/mail`)).json()) as { subject: string; to: string[] }[];
        expect(mails.find((m) => m.subject === '[ANN] relctl-demo 1.0.0 released')?.to).toEqual(['dev@example.org', 'users@example.org']);
        expect(await readFile(path.join(state, 'calls'), 'utf8')).toContain('tomcatStart');
        // The checkout cannot fetch the pull request's branch (it went through the API): smoke
        // deployed the pull request's change, the pin at 1.0.0, not the checkout's 0.9.0.
        expect(r.stderr).toContain("testing " + checkout + " with the pull request's change (the pin set to 1.0.0)");
        expect(summary.context.smokeDeployed).toBe('relctlDemoVersion=1.0.0');
        expect(await readFile(path.join(checkout, 'gradle.properties'), 'utf8')).toBe(props);
        for (const secret of [token, 'smtp-pass-e2e', 'registry-pass-e2e']) expect(r.stdout + r.stderr).not.toContain(secret);
      } finally {
        const { execa } = await import('execa');
        await execa(path.join(checkout, 'gradlew'), ['tomcatStop'], { env: { ...process.env, SMOKE_STATE: state }, reject: false });
      }
    } finally {
      await sandbox.close();
    }
  });
});
