import { chmod, copyFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/server.js';
import { repoRoot, runCli, type CliResult } from '../../helpers/cli.js';
import { freePort } from '../../helpers/ports.js';
import { buildahStorageEnv, startRegistry, type LoopbackRegistry } from '../../helpers/registry.js';
import { git, gitEnv, gitRepo, tempDir, writeTree, type TempDir } from '../../helpers/temp.js';

/**
 * DESIGN §2 for the post-release half: a canary in every secret variable, each post-release command
 * and the chain run in text, --json and --verbose, and every child they start (git, the smoke
 * commands, buildah) records its environment and argv. No canary may reach a child that does not
 * need it, nor anything relctl printed or wrote; a secret a child finds on its own is masked in
 * the output relctl captures from it.
 */
const canary = {
  github: 'ghp_PostCanaryGithub0000000000000000000',
  smtp: 'smtp-Canary-pw7',
  registry: 'registry-Canary-pw9',
  tokenUser: 'portal-Canary-user',
  tokenPass: 'portal-Canary-pass',
  jira: 'jira-Canary-token3',
};
const secrets = Object.values(canary);

let sandbox: RunningSandbox;
let registry: LoopbackRegistry;
let t: TempDir;
let project: string;
let dumps: string;
let state: string;
let port: number;
let storageEnv: Record<string, string>;
let binDir: string;
const home = (): string => path.join(t.path, 'home');

function assertClean(where: string, text: string): void {
  for (const s of secrets) expect(text.includes(s), `${where} holds the canary ${s.slice(0, 12)}...`).toBe(false);
}

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const p = path.join(dir, e.name);
    if (e.isDirectory() && e.name !== '.git') out.push(...(await filesUnder(p)));
    else if (e.isFile()) out.push(p);
  }
  return out;
}

/** A wrapper first on PATH: appends the tool's environment and argv to the dump folder, then runs the real one. */
async function recordingWrapper(bin: string, tool: string, real: string): Promise<void> {
  const script = `#!/bin/sh\n{ echo "== ${tool} $*"; env; } >> "${dumps}/${tool}.txt"\nexec ${real} "$@"\n`;
  await writeFile(path.join(bin, tool), script);
  await chmod(path.join(bin, tool), 0o755);
}

beforeAll(async () => {
  t = await tempDir('relctl-post-canary-');
  dumps = path.join(t.path, 'dumps');
  state = path.join(t.path, 'state');
  const bin = path.join(t.path, 'bin');
  binDir = bin;
  await Promise.all([mkdir(dumps), mkdir(state), mkdir(bin), mkdir(path.join(t.path, 'registry'))]);
  await recordingWrapper(bin, 'git', '/usr/bin/git');
  await recordingWrapper(bin, 'buildah', '/usr/bin/buildah');
  port = await freePort();

  // The public repository has 0.9.0 and 1.0.0 of the component.
  const seed = path.join(t.path, 'seed');
  const pom = (v: string): string => `<project><groupId>org.example</groupId><artifactId>demo-component</artifactId><version>${v}</version></project>\n`;
  await writeTree(seed, {
    'org/example/demo-component/0.9.0/demo-component-0.9.0.pom': pom('0.9.0'),
    'org/example/demo-component/1.0.0/demo-component-1.0.0.pom': pom('1.0.0'),
  });
  sandbox = await startSandbox({ seedRepo: seed, smtpAuth: { user: 'mailer', password: canary.smtp } });
  registry = await startRegistry(path.join(t.path, 'registry'), { user: 'bot', password: canary.registry });
  storageEnv = await buildahStorageEnv(t.path);

  // The distribution: a bare origin (its path names example/portal-dist) and a local clone.
  const props = 'uPortalVersion=5.14.0\ndemoComponentVersion=0.9.0\n';
  const fixture = path.join(repoRoot, 'test/fixtures/distribution');
  const bare = path.join(t.path, 'host', 'example', 'portal-dist.git');
  const clone = path.join(t.path, 'portal-dist');
  await gitRepo(clone, home(), {
    'gradle.properties': props,
    '.gitignore': 'build/\n',
    'server.mjs': await readFile(path.join(fixture, 'server.mjs')),
    'docker/Dockerfile': 'FROM scratch\nARG VERSION\nLABEL version=$VERSION\nCOPY gradle.properties /portal.properties\n',
    'docker/gradle.properties': props,
  });
  await copyFile(path.join(fixture, 'gradlew'), path.join(clone, 'gradlew'));
  await git(clone, home(), 'add', 'gradlew');
  await git(clone, home(), 'update-index', '--chmod=+x', 'gradlew');
  await git(clone, home(), 'commit', '-q', '-m', 'wrapper');
  await git(t.path, home(), 'init', '-q', '--bare', '-b', 'main', bare);
  await git(clone, home(), 'remote', 'add', 'origin', bare);
  await git(clone, home(), 'push', '-q', '-u', 'origin', 'main');
  await git(clone, home(), 'remote', 'set-head', 'origin', 'main');

  // A secret a smoke command finds on its own (not through relctl): masked in what relctl captures.
  const found = path.join(t.path, 'found-secret.txt');
  await writeFile(found, `the server printed ${canary.github} in its banner\n`);
  const dump = (phase: string, then: string): string[] => ['sh', '-c', `{ echo "== ${phase}"; env; } >> "${dumps}/smoke.txt"; env; cat "${found}"; ${then}`];

  project = path.join(t.path, 'project');
  await gitRepo(project, home(), {
    'pom.xml': '<project><modelVersion>4.0.0</modelVersion><groupId>org.example</groupId><artifactId>demo-component</artifactId><version>1.0.1-SNAPSHOT</version></project>\n',
    'relctl.config.json': JSON.stringify({
      distribution: {
        repo: '../portal-dist',
        smoke: {
          stop: dump('stop', './gradlew tomcatStop'),
          deploy: dump('deploy', './gradlew clean tomcatDeploy'),
          start: dump('start', './gradlew tomcatStart'),
          healthUrl: `http://127.0.0.1:${port}/health`,
          deadline: 20,
        },
        image: { name: `${registry.host}/example/portal-demo`, context: 'docker' },
      },
      mail: { from: 'release@example.org', dev: 'dev@example.org', user: 'users@example.org' },
      tracker: { repo: 'example/demo-component' },
    }),
  });
  await git(project, home(), 'tag', 'demo-component-0.9.0');
  await git(project, home(), 'commit', '-q', '--allow-empty', '-m', 'fix: the greeting is polite (#3)');
  await git(project, home(), 'tag', 'demo-component-1.0.0');
  // The repository host has the project, its tag, and (mirrored, as a push to GitHub would) the distribution.
  const api = githubApi();
  await gh('PUT', '/repos/example/demo-component/contents/README.md', { message: 'readme', content: Buffer.from('demo\n').toString('base64') });
  const sha = (await gh('GET', '/repos/example/demo-component/git/ref/heads/main')).json.object.sha as string;
  await gh('POST', '/repos/example/demo-component/git/refs', { ref: 'refs/tags/demo-component-1.0.0', sha });
  await gh('PUT', '/repos/example/portal-dist/contents/gradle.properties', { message: 'versions', content: Buffer.from(props).toString('base64') });
  // The host learns of the branch relctl pushes to origin the way GitHub would (the sandbox host is not that origin).
  const distSha = (await gh('GET', '/repos/example/portal-dist/git/ref/heads/main')).json.object.sha as string;
  await gh('POST', '/repos/example/portal-dist/git/refs', { ref: 'refs/heads/relctl/demo-component-1.0.0', sha: distSha });
  const onBranch = (await gh('GET', '/repos/example/portal-dist/contents/gradle.properties?ref=relctl%2Fdemo-component-1.0.0')).json.sha as string;
  const bumped = Buffer.from(props.replace('0.9.0', '1.0.0')).toString('base64');
  await gh('PUT', '/repos/example/portal-dist/contents/gradle.properties', { message: 'bump', branch: 'relctl/demo-component-1.0.0', sha: onBranch, content: bumped });
  expect(api).toMatch(/^http:\/\/127\.0\.0\.1:/);
}, 120_000);

afterAll(async () => {
  const { execa } = await import('execa');
  if (t !== undefined) await execa(path.join(t.path, 'portal-dist', 'gradlew'), ['tomcatStop'], { env: { ...process.env, SMOKE_STATE: state }, reject: false });
  await registry?.[Symbol.asyncDispose]();
  await sandbox?.close();
  await t?.[Symbol.asyncDispose]();
});

function githubApi(): string {
  return (sandbox.urls as unknown as { githubApiUrl: string }).githubApiUrl;
}

async function gh(method: string, route: string, body?: unknown): Promise<{ status: number; json: any }> {
  const r = await fetch(`${githubApi()}${route}`, {
    method,
    headers: { authorization: `token ${canary.github}`, accept: 'application/vnd.github+json', 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await r.text();
  return { status: r.status, json: text === '' ? undefined : JSON.parse(text) };
}

function secretEnv(github: 'RELCTL_GITHUB_TOKEN' | 'GITHUB_TOKEN' = 'RELCTL_GITHUB_TOKEN'): Record<string, string> {
  const smtp = new URL(sandbox.urls.smtpUrl!);
  smtp.username = 'mailer';
  smtp.password = canary.smtp;
  return {
    ...gitEnv(home()),
    ...storageEnv,
    PATH: `${binDir}:${process.env.PATH ?? ''}`,
    GH_CONFIG_DIR: path.join(t.path, 'no-gh'),
    [github]: canary.github,
    RELCTL_GITHUB_API_URL: githubApi(),
    RELCTL_SMTP_URL: smtp.toString(),
    RELCTL_REGISTRY_USERNAME: 'bot',
    RELCTL_REGISTRY_PASSWORD: canary.registry,
    RELCTL_TOKEN_USERNAME: canary.tokenUser,
    RELCTL_TOKEN_PASSWORD: canary.tokenPass,
    RELCTL_JIRA_TOKEN: canary.jira,
    RELCTL_PUBLIC_REPO_URL: sandbox.urls.publicRepoUrl,
    SMOKE_STATE: state,
    SMOKE_PORT: String(port),
  };
}

async function relctl(args: string[], env = secretEnv()): Promise<CliResult> {
  const r = await runCli([...args, '--cwd', project], { home: home(), env, timeoutMs: 120_000 });
  assertClean(`relctl ${args.join(' ')} stdout`, r.stdout);
  assertClean(`relctl ${args.join(' ')} stderr`, r.stderr);
  return r;
}

describe('post-release secrets (canary in every secret variable)', () => {
  it('reach no child, no output, no file: each command, then the chain', async () => {
    for (const mode of [['--verbose'], ['--json', '--verbose']]) {
      const notes = await relctl(['notes', '--publish', '--yes', ...mode]);
      expect(notes.exitCode, notes.stderr).toBe(0);
      const dist = await relctl(['distribute', '--yes', '--release-version', '1.0.0', ...mode]);
      expect(dist.exitCode, dist.stderr).toBe(0);
      const smoke = await relctl(['smoke', '--yes', ...mode]);
      expect(smoke.exitCode, smoke.stderr).toBe(0);
      // The child printed the secret it found: relctl's copy of that output is masked.
      expect(smoke.stderr).toContain('the server printed *** in its banner');
      for (const kind of ['prerelease', 'announce', 'social']) {
        const r = await relctl(['notify', kind, ...(kind === 'social' ? [] : ['--send']), '--yes', '--release-version', '1.0.0', ...mode]);
        expect(r.exitCode, `${kind}: ${r.stderr}`).toBe(0);
      }
      const eml = await relctl(['notify', 'announce', '--output', path.join(project, '.relctl', 'mail'), '--resend', '--yes', '--release-version', '1.0.0', ...mode]);
      expect(eml.exitCode, eml.stderr).toBe(0);
    }
    const image = await relctl(['image', '--yes', '--release-version', '1.0.0', '--verbose']);
    expect(image.exitCode, image.stderr).toBe(0);
    const chain = await relctl(['run', 'notes', 'distribute', 'smoke', 'image', 'notify', '--yes', '--verbose']);
    expect(chain.exitCode, chain.stderr).toBe(0);
    // GITHUB_TOKEN that relctl read as its token is not passed on either.
    const viaGithubToken = await relctl(['distribute', '--yes', '--release-version', '1.0.0', '--verbose'], secretEnv('GITHUB_TOKEN'));
    expect(viaGithubToken.exitCode, viaGithubToken.stderr).toBe(0);
    // A failing smoke start: the log tail printed with the error is masked too.
    const failing = await relctl(['smoke', '--yes'], { ...secretEnv(), SMOKE_FAIL_START: '1' });
    expect(failing.exitCode).toBe(1);
    expect(failing.stderr).toContain('the server printed *** in its banner');

    // Every child ran with a clean environment: git (push included), the smoke commands, buildah.
    const recorded = await readdir(dumps);
    expect(recorded).toEqual(expect.arrayContaining(['git.txt', 'smoke.txt', 'buildah.txt']));
    const gitDump = await readFile(path.join(dumps, 'git.txt'), 'utf8');
    expect(gitDump).toContain('== git ');
    expect(gitDump).toMatch(/== git .*push/);
    expect(await readFile(path.join(dumps, 'buildah.txt'), 'utf8')).toMatch(/== buildah .*login/);
    for (const f of recorded) {
      const text = await readFile(path.join(dumps, f), 'utf8');
      assertClean(`the environment or argv of ${f.replace('.txt', '')}`, text);
      expect(text, f).not.toMatch(/^(RELCTL_(TOKEN_|GITHUB_TOKEN|SMTP_URL|REGISTRY_|JIRA_TOKEN)|GITHUB_TOKEN=)/m);
    }
    // Everything relctl wrote: the journal, smoke logs, .eml files.
    const written = await filesUnder(project);
    expect(written.some((f) => /smoke-.*\.log$/.test(f))).toBe(true);
    expect(written.some((f) => f.endsWith('.eml'))).toBe(true);
    for (const f of [...written, ...(await filesUnder(path.join(t.path, 'portal-dist')))]) assertClean(f, await readFile(f, 'utf8'));
    // Mail went out (the SMTP login worked with the password relctl kept to itself).
    const mails = (await (await fetch(`http://127.0.0.1:${sandbox.port}/sandbox/mail`)).json()) as { subject: string }[];
    expect(mails.some((m) => m.subject.includes('demo-component 1.0.0'))).toBe(true);
  }, 600_000);
});
