import { chmod, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../helpers/cli.js';
import { createTestKey, type TestKey } from '../helpers/gpg.js';
import { gitRepo, tempDir, type TempDir } from '../helpers/temp.js';
import { control, pomXml, sandboxEnv, stage, startSandbox, uploadKeyConfirmed, writeComponent } from './upload-helpers.js';

/**
 * The canary: a token pushed through every command in every mode. Neither half, nor the base64
 * form, nor their URL-encodings may appear in stdout, stderr, files under the project, or the
 * argv of a child process (recorded by fake gpg/mvn wrappers on PATH).
 */
const user = 'canary-user-Q7x';
const pass = 'canary-pass-Z9!k';
const secrets = [user, pass, Buffer.from(`${user}:${pass}`).toString('base64'), encodeURIComponent(pass), Buffer.from(`${user}:wrong-pass-1`).toString('base64')];

type Sb = Awaited<ReturnType<typeof startSandbox>>;
let sb: Sb;
let key: TestKey;
let work: TempDir;
let project: string;
let argvLog: string;
let binDir: string;

function assertClean(where: string, text: string): void {
  for (const s of secrets) expect(text.includes(s), `${where} leaks ${s.slice(0, 6)}...`).toBe(false);
}

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...(await filesUnder(p)));
    else if (e.isFile()) out.push(p);
  }
  return out;
}

beforeAll(async () => {
  sb = await startSandbox({ users: [{ name: user, password: pass }] });
  key = await createTestKey();
  work = await tempDir();
  project = path.join(work.path, 'project');
  await gitRepo(project, work.path, { 'pom.xml': pomXml({ groupId: 'org.example', artifactId: 'demo', version: '1.0.1-SNAPSHOT' }) });
  binDir = path.join(work.path, 'bin');
  argvLog = path.join(work.path, 'argv.log');
  await mkdir(binDir, { recursive: true });
  for (const [tool, real] of [['gpg', '/usr/bin/gpg'], ['mvn', '/usr/bin/mvn']] as const) {
    // Records the argv, then runs the real tool (key sending is faked: no network use by dirmngr).
    const script = `#!/bin/sh\nprintf '%s\\n' "${tool} $*" >> "${argvLog}"\ncase "$*" in *--send-keys*) exit 0;; esac\nexec ${real} "$@"\n`;
    await writeFile(path.join(binDir, tool), script);
    await chmod(path.join(binDir, tool), 0o755);
  }
  await writeFile(argvLog, '');
  await uploadKeyConfirmed(sb, key.armoredPublicKey, key.email);
});
afterAll(async () => {
  await sb?.close();
  await key?.cleanup();
  await work?.[Symbol.asyncDispose]();
});

function env(extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return {
    ...sandboxEnv(sb, { name: user, password: pass }),
    GNUPGHOME: key.gnupgHome,
    PATH: `${binDir}:${process.env.PATH ?? ''}`,
    ...extra,
  };
}

async function run(args: string[], extra: Record<string, string | undefined> = {}): Promise<CliResult> {
  const r = await runCli([...args, '--cwd', project], { env: env(extra), home: work.path });
  assertClean(`relctl ${args.join(' ')} stdout`, r.stdout);
  assertClean(`relctl ${args.join(' ')} stderr`, r.stderr);
  return r;
}

const modes = [[], ['--json'], ['--verbose'], ['--json', '--verbose']];

describe('canary token never leaks', () => {
  it('through every command, every mode, success and failure, 401 included, and child argv', async () => {
    const seen = new Set<number>();
    const note = (r: CliResult): void => void seen.add(r.exitCode);
    for (const mode of modes) {
      // Failure first: nothing staged → "No repository found for canary-user-Q7x/127.0.0.1/..." from the portal.
      note(await run(['upload', '--group-id', 'org.example', '--yes', '--no-verify', ...mode]));
      note(await run(['upload', '--group-id', 'org.example', '--yes', '--no-verify', '--dry-run', ...mode]));
      note(await run(['upload', '--group-id', 'org.example', '--yes', '--no-verify', ...mode], { RELCTL_TOKEN_PASSWORD: 'wrong-pass-1' }));
      note(await run(['search', '--group-id', 'org.example', ...mode], { RELCTL_TOKEN_PASSWORD: 'wrong-pass-1' }));
    }
    await stage(
      sb,
      await writeComponent(path.join(work.path, 'bad'), key, { groupId: 'org.example', artifactId: 'demo', version: '1.0.0', developers: false }),
      { user: { name: user, password: pass } },
    );
    const failed = await run(['upload', '--group-id', 'org.example', '--yes', '--no-verify', '--json', '--verbose']);
    expect(failed.exitCode).toBe(1);
    const failedId = (JSON.parse(failed.stdout) as { deploymentId: string }).deploymentId;
    for (const mode of modes) {
      note(await run(['search', '--group-id', 'org.example', '--ip', 'any', ...mode]));
      note(await run(['upload', '--group-id', 'org.example', '--yes', '--no-verify', ...mode])); // namespace blocked
      note(await run(['status', '--deployment', failedId, ...mode]));
      note(await run(['preflight', '--fingerprint', key.fingerprint, ...mode]));
      note(await run(['keys', 'check', '--fingerprint', key.fingerprint, ...mode]));
      note(await run(['keys', 'send', '--yes', '--fingerprint', key.fingerprint, ...mode]));
      note(await run(['keys', 'send', '--dry-run', ...mode]));
      note(await run(['drop', '--deployment', failedId, '--dry-run', ...mode]));
      note(await run(['publish', '--deployment', failedId, '--dry-run', ...mode]));
      note(await run(['verify', '--dir', path.join(work.path, 'bad'), ...mode]));
      note(await run(['drop', ...mode])); // usage error
    }
    note(await run(['keys', 'export', '--output', path.join(project, 'key.asc')]));
    note(await run(['drop', '--deployment', failedId, '--yes', '--verbose']));
    await stage(sb, await writeComponent(path.join(work.path, 'good'), key, { groupId: 'org.example', artifactId: 'demo', version: '1.0.1' }), {
      user: { name: user, password: pass },
    });
    const ok = await run(['upload', '--group-id', 'org.example', '--yes', '--no-verify', '--json', '--verbose']);
    expect(ok.exitCode, ok.stderr).toBe(0);
    const okId = (JSON.parse(ok.stdout) as { deploymentId: string; repositoryKey: string }).deploymentId;
    note(await run(['status', '--wait', '--wait-timeout', '5', '--verbose']));
    note(await run(['publish', '--deployment', okId, '--yes', '--verbose']));
    note(await run(['publish', '--deployment', okId, '--yes', '--json']));
    // The token from Maven settings (no RELCTL_TOKEN_*), ${env.X} resolved.
    await mkdir(path.join(work.path, '.m2'), { recursive: true });
    await writeFile(
      path.join(work.path, '.m2', 'settings.xml'),
      `<settings><servers><server><id>central</id><username>${user}</username><password>\${env.CANARY_PW}</password></server></servers></settings>`,
    );
    const viaSettings = await run(['search', '--group-id', 'org.example', '--verbose'], {
      RELCTL_TOKEN_USERNAME: undefined,
      RELCTL_TOKEN_PASSWORD: undefined,
      CANARY_PW: pass,
    });
    expect(viaSettings.exitCode, viaSettings.stderr).toBe(0);
    expect(viaSettings.stderr).toContain('settings.xml');
    expect([...seen]).toEqual(expect.arrayContaining([0, 1, 2, 3]));

    for (const file of await filesUnder(project)) {
      if (file.includes(`${path.sep}.git${path.sep}`)) continue;
      assertClean(file, await readFile(file, 'utf8'));
    }
    expect((await stat(path.join(project, '.relctl', 'journal.json'))).isFile()).toBe(true);
    const argv = await readFile(argvLog, 'utf8');
    expect(argv).toContain('--send-keys');
    assertClean('child argv', argv);
    await control(sb, 'POST', 'reset');
    // About seventy CLI runs: a minute alone, more on a loaded two-core machine.
  }, 240_000);
});
