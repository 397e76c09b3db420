import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { bareRepo, childPom } from '../helpers/fleet.js';
import { gitEnv, tempDir, type TempDir } from '../helpers/temp.js';

/**
 * A fleet run that fails is not a fleet that is not ready (DESIGN §13, issue 43 item 7): exit 1
 * means "some repository is not ready", so the run's own failure exits 2 or 3, and `--out` still
 * holds a document a CI matrix's report can read.
 */
interface Doc {
  ok: boolean;
  repositories: { name: string; verdict: string; error?: { code: string; message: string } }[];
  error?: { code: string; message: string; fix: string };
}

describe('relctl fleet audit when the run itself fails', () => {
  let tmp: TempDir;
  let home: string;
  let repos: string;
  const audit = (...args: string[]) => runCli(['fleet', 'audit', '--repos', repos, ...args], { cwd: tmp.path, home, env: gitEnv(home) });
  const doc = async (file: string): Promise<Doc> => JSON.parse(await readFile(path.join(tmp.path, file), 'utf8')) as Doc;

  beforeAll(async () => {
    tmp = await tempDir('relctl-fleet-failures-');
    home = path.join(tmp.path, 'home');
    const root = path.join(tmp.path, 'git');
    await bareRepo(root, home, 'acme/lib', [{ files: { 'pom.xml': childPom('lib', '1') } }]);
    repos = path.join(tmp.path, 'repos.txt');
    await writeFile(repos, `acme/lib ${path.join(root, 'acme/lib.git')}\n`);
    await writeFile(path.join(tmp.path, 'a-file'), 'not a folder\n');
  });
  afterAll(async () => {
    await tmp[Symbol.asyncDispose]();
  });

  it('refuses a --workdir that is a file as a usage error (exit 2), and still writes --out', async () => {
    const r = await audit('--offline', '--workdir', 'a-file', '--json', '--out', 'usage.json');
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain('is a file, not a folder');
    expect(r.stderr).not.toContain('    at ');
    const written = await doc('usage.json');
    expect(written.ok).toBe(false);
    expect(written.error?.code).toBe('bad-option');
  });

  it('a --github-url relctl refuses is a usage error whose document is still in --out, in fleet audit and fleet rehearse alike', async () => {
    const r = await audit('--offline', '--workdir', 'host-work', '--github-url', 'http://github.example.org/api/v3', '--json', '--out', 'host.json');
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain('plain HTTP on a host that is not loopback');
    expect((await doc('host.json')).error?.code).toBe('invalid-config');

    const rehearse = await runCli(['fleet', 'rehearse', '--repos', repos, '--offline', '--workdir', 'a-file', '--json', '--out', 'rehearse.json'], { cwd: tmp.path, home, env: gitEnv(home) });
    expect(rehearse.exitCode, rehearse.stderr).toBe(2);
    expect(rehearse.stderr).toContain('is a file, not a folder');
    const written = await doc('rehearse.json');
    expect(written.ok).toBe(false);
    expect(written.error?.code).toBe('bad-option');
  });

  it('exits 3, not 1, on an internal error, and --out names the --only repository as an error the dashboard shows', async () => {
    // The workspace's owner folder is a file: the clone cannot be made, an error relctl never expected.
    const workdir = path.join(tmp.path, 'broken-work');
    await mkdir(workdir, { recursive: true });
    await writeFile(path.join(workdir, 'acme'), 'in the way\n');
    const r = await audit('--offline', '--workdir', workdir, '--only', 'acme/lib', '--json', '--out', 'docs/lib.json');
    expect(r.exitCode, r.stderr).toBe(3);
    expect(r.stderr).toContain('internal error (this is a bug in relctl)');
    const written = await doc('docs/lib.json');
    expect(written.error?.code).toBe('internal');
    expect(written.repositories).toEqual([expect.objectContaining({ name: 'acme/lib', verdict: 'error', error: expect.objectContaining({ code: 'internal' }) as unknown })]);
    // The CI matrix's report job reads it: the repository stays on the dashboard, as an error.
    const report = await runCli(['fleet', 'report', '--from', 'docs', '--format', 'markdown'], { cwd: tmp.path, home, env: gitEnv(home) });
    expect(report.exitCode, report.stderr).toBe(1);
    expect(report.stdout).toContain('| acme/lib | **error** |');

    const text = await audit('--offline', '--workdir', workdir, '--format', 'markdown', '--out', 'failed.md');
    expect(text.exitCode).toBe(3);
    expect(await readFile(path.join(tmp.path, 'failed.md'), 'utf8')).toContain('internal error (this is a bug in relctl)');
  });

  it('a parent the public repository does not answer for makes the repository an error, never ready without its values', async () => {
    // acme/lib's parent org.acme:acme-parent is not in the fleet: it must come from the public repository, which refuses the connection.
    const r = await audit('--workdir', path.join(tmp.path, 'parent-work'), '--public-repo-url', 'http://127.0.0.1:9', '--json', '--out', 'parent.json');
    expect(r.exitCode, r.stderr).toBe(1);
    const [lib] = (await doc('parent.json')).repositories;
    expect(lib).toMatchObject({ name: 'acme/lib', verdict: 'error', error: { code: 'service-unreachable', message: expect.stringContaining('The parent POM org.acme:acme-parent:1 could not be fetched from http://127.0.0.1:9/') as unknown } });
  });

  it('exits 3 when no repository could be reached over the network, and names --github-url in the advice', async () => {
    // Port 9 (discard) on loopback: nothing listens, git's connection is refused.
    const unreachable = path.join(tmp.path, 'unreachable.txt');
    await writeFile(unreachable, 'acme/one http://127.0.0.1:9/acme/one.git\nacme/two http://127.0.0.1:9/acme/two.git\n');
    const r = await runCli(['fleet', 'audit', '--repos', unreachable, '--workdir', path.join(tmp.path, 'net-work'), '--offline', '--json', '--out', 'net.json'], { cwd: tmp.path, home, env: gitEnv(home) });
    expect(r.exitCode, r.stderr).toBe(3);
    const written = await doc('net.json');
    expect(written.repositories.map((x) => x.verdict)).toEqual(['error', 'error']);
    expect(written.error?.code).toBe('fleet-unreachable');
    expect(written.error?.fix).toContain('--github-url');
    expect(written.error?.fix).not.toContain('--portal-url');
  });
});
