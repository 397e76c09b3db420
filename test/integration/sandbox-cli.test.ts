import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { binPath, runCli } from '../helpers/cli.js';
import { bareRepo } from '../helpers/git-root.js';
import { git, tempDir, type TempDir } from '../helpers/temp.js';
import { basic, bearer, call } from './sandbox-fixture.js';

/** `relctl sandbox` as a process: the ready line/JSON, signals, and a data folder surviving kill -9. */
let tmp: TempDir;
const children: ResultPromise[] = [];

beforeAll(async () => {
  tmp = await tempDir('relctl-sbcli-');
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  await tmp?.[Symbol.asyncDispose]();
});

interface Ready {
  stagingApiUrl: string;
  portalUrl: string;
  publicRepoUrl: string;
  keyserverUrl: string;
  secondaryKeyserverUrl: string;
  githubApiUrl: string;
  jiraUrl: string;
  users: { name: string; password: string; namespaces: string[] | null }[];
  controlToken: string;
}

/** Starts the CLI and resolves with what it printed once ready (the JSON object or the text line). */
async function start(args: string[]): Promise<{ child: ResultPromise; stdout: () => string; ready: string }> {
  const child = execa('node', [binPath, 'sandbox', ...args], { env: { CI: 'true', NO_COLOR: '1' }, reject: false, buffer: false });
  children.push(child);
  let out = '';
  const ready = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const complete = (): boolean => {
        try {
          return !out.startsWith('{') || JSON.parse(out) !== undefined;
        } catch {
          return false;
        }
      };
      if (out.endsWith('\n') && complete()) resolve(out);
    });
    void child.then((r) => reject(new Error(`exited ${r.exitCode} before ready`)));
  });
  return { child, stdout: () => out, ready };
}

describe('relctl sandbox', () => {
  test('--json prints one object with the URLs and users; SIGTERM ends it with exit 0', async () => {
    const { child, ready } = await start(['--port', '0', '--json', '--user', 'alice:a-pw:com.acme,org.acme', '--user', 'bob:b-pw']);
    const info = JSON.parse(ready) as Ready;
    const origin = new URL(info.stagingApiUrl).origin;
    expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(info).toEqual({
      stagingApiUrl: `${origin}/staging`,
      portalUrl: `${origin}/portal`,
      publicRepoUrl: `${origin}/repo`,
      keyserverUrl: `${origin}/keys`,
      secondaryKeyserverUrl: `${origin}/keys2`,
      githubApiUrl: `${origin}/github/api`,
      jiraUrl: `${origin}/jira`,
      smtpUrl: expect.stringMatching(/^smtp:\/\/127\.0\.0\.1:\d+$/),
      users: [
        { name: 'alice', password: 'a-pw', namespaces: ['com.acme', 'org.acme'] },
        { name: 'bob', password: 'b-pw', namespaces: null },
      ],
      controlToken: expect.stringMatching(/^[\w-]{32}$/),
    });
    // Only the given users exist: the default one is gone.
    const put = (auth: string): Promise<number> =>
      call(`${info.stagingApiUrl}/service/local/staging/deploy/maven2/org/acme/x/1/x-1.pom`, { method: 'PUT', auth, body: 'x' }).then((r) => r.status);
    expect(await put(basic('sandbox', 'sandbox'))).toBe(401);
    expect(await put(basic('alice', 'a-pw'))).toBe(201);
    child.kill('SIGTERM');
    const result = await child;
    expect(result.exitCode).toBe(0);
  });

  test('--smtp-user: the ready document and line carry the SMTP URL with the password the caller chose (a harness sends with it as given)', async () => {
    for (const json of [true, false]) {
      const { child, ready } = await start(['--port', '0', ...(json ? ['--json'] : []), '--smtp-user', 'mailer:pw-1234']);
      const smtpUrl = json ? (JSON.parse(ready) as { smtpUrl: string }).smtpUrl : /smtpUrl=(\S+)/.exec(ready)![1]!;
      expect(smtpUrl).toMatch(/^smtp:\/\/mailer:pw-1234@127\.0\.0\.1:\d+$/);
      child.kill('SIGTERM');
      expect((await child).exitCode).toBe(0);
    }
  });

  test('a bad --user or --port is a usage error (exit 2)', async () => {
    const user = await runCli(['sandbox', '--user', 'nopassword']);
    expect(user.exitCode).toBe(2);
    expect(user.stderr).toContain('--user');
    const port = await runCli(['sandbox', '--port', 'http']);
    expect(port.exitCode).toBe(2);
  });

  test('a --data-dir that cannot be a folder is a usage error (exit 2), with --json one error document', async () => {
    const file = path.join(tmp.path, 'a-file');
    await writeFile(file, 'x');
    const r = await runCli(['sandbox', '--port', '0', '--json', '--data-dir', path.join(file, 'data')]);
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain('fix:');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: false, error: { kind: 'usage' } });
  });

  test('--git-root: the ready document adds githubGitUrl and gitRoot, and git clones through it; a --git-root that is no folder is exit 2', async () => {
    const home = path.join(tmp.path, 'git-home');
    const root = path.join(tmp.path, 'git-root');
    await mkdir(home, { recursive: true });
    await bareRepo(root, home, 'acme/lib');
    const { child, ready } = await start(['--port', '0', '--json', '--git-root', root]);
    const info = JSON.parse(ready) as Ready & { githubGitUrl: string; gitRoot: string };
    const origin = new URL(info.stagingApiUrl).origin;
    expect(info).toMatchObject({ githubGitUrl: `${origin}/github`, gitRoot: root });
    await git(tmp.path, home, 'clone', '-q', `${info.githubGitUrl}/acme/lib.git`, 'cli-clone');
    expect(await readFile(path.join(tmp.path, 'cli-clone', 'README.md'), 'utf8')).toBe('# acme/lib\n');
    const listed = await call(`${info.githubApiUrl}/orgs/acme/repos`);
    expect(listed.json()).toMatchObject([{ full_name: 'acme/lib', clone_url: `${info.githubGitUrl}/acme/lib.git`, default_branch: 'main' }]);
    child.kill('SIGTERM');
    expect((await child).exitCode).toBe(0);

    const text = await start(['--port', '0', '--git-root', root]);
    expect(text.ready).toMatch(/ githubGitUrl=http:\/\/127\.0\.0\.1:\d+\/github\n$/);
    text.child.kill('SIGTERM');
    await text.child;
    const bad = await runCli(['sandbox', '--port', '0', '--git-root', path.join(tmp.path, 'no-such-folder')]);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('--git-root');
  });

  test('with --data-dir, staged files and repositories survive kill -9 in the middle of uploads', async () => {
    const dataDir = path.join(tmp.path, 'data');
    const first = await start(['--port', '0', '--data-dir', dataDir]);
    const staging = /stagingApiUrl=(\S+)/.exec(first.ready)![1]!;
    const auth = basic('sandbox', 'sandbox');
    const url = (i: number): string => `${staging}/service/local/staging/deploy/maven2/org/crash/m${i}/1.0/m${i}-1.0.jar`;
    // Uploads race the kill: whatever got its 201 must be there after the restart.
    const landed: number[] = [];
    const uploads = Array.from({ length: 60 }, (_, i) =>
      call(url(i), { method: 'PUT', auth, body: `content ${i}` }).then(
        (r) => {
          if (r.status === 201) landed.push(i);
          if (landed.length === 10) first.child.kill('SIGKILL');
        },
        () => undefined,
      ),
    );
    await Promise.all(uploads);
    await first.child;
    expect(landed.length).toBeGreaterThanOrEqual(10);

    const second = await start(['--port', '0', '--data-dir', dataDir]);
    const staging2 = /stagingApiUrl=(\S+)/.exec(second.ready)![1]!;
    for (const i of landed) {
      const r = await call(url(i).replace(staging, staging2), { auth });
      expect(r.text, `m${i}`).toBe(`content ${i}`);
    }
    const search = await call(`${staging2}/manual/search/repositories?ip=any&profile_id=org.crash`, { auth: bearer('sandbox', 'sandbox') });
    expect(search.json().repositories).toEqual([
      { key: 'sandbox/127.0.0.1/org.crash--default-repository', state: 'open', description: null, portal_deployment_id: null },
    ]);
    second.child.kill('SIGINT');
    expect((await second.child).exitCode).toBe(0);
  });
});
