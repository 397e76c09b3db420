import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, open, readFile, readdir } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { processAlive } from '../../src/io/process-identity.js';
import { binPath, repoRoot } from '../helpers/cli.js';
import { processesUnder } from '../helpers/processes.js';
import { gitEnv, tempDir } from '../helpers/temp.js';
import { demoInTemp, fakeBin } from './release-fixture.js';

/**
 * A closed stdout or stderr (issue 37 item 1, DESIGN §3): relctl stops writing to it, finishes or
 * undoes what it started, and ends by itself, quietly, with 141 or the command's own status. Each
 * run is SIGKILLed after `limitMs` (before the fix relctl spun a core and ignored SIGTERM).
 */
interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** From the close to the exit. */
  ms: number;
  stdout: string;
  stderr: string;
}

interface Started {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** Closes the test's end of these pipes, as a reader that goes away does. */
  close: (...streams: ('stdout' | 'stderr')[]) => void;
  ended: Promise<Ended>;
}

function env(home: string, tmp: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('RELCTL_')) e[k] = v;
  delete e.NODE_EXTRA_CA_CERTS;
  return { ...e, ...gitEnv(home), CI: 'true', NO_COLOR: '1', TMPDIR: tmp, ...extra };
}

/** Starts relctl with stdout (unless `stdout` is a descriptor to give it) and stderr on pipes. */
function start(args: string[], e: NodeJS.ProcessEnv, { limitMs = 15_000, stdout: out = 'pipe' as 'pipe' | number } = {}): Started {
  const child = spawn(process.execPath, [binPath, ...args], { cwd: repoRoot, env: e, stdio: ['ignore', out, 'pipe'] });
  let [stdout, stderr, closedAt] = ['', '', Date.now()];
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const ended = new Promise<Ended>((resolve) => {
    const limit = setTimeout(() => child.kill('SIGKILL'), limitMs);
    child.on('exit', (code, signal) => {
      clearTimeout(limit);
      resolve({ code, signal, ms: Date.now() - closedAt, stdout, stderr });
    });
  });
  const close = (...streams: ('stdout' | 'stderr')[]): void => {
    closedAt = Date.now();
    for (const s of streams) child[s]!.destroy();
  };
  return { child, stdout: () => stdout, stderr: () => stderr, close, ended };
}

/** `node bin/relctl.js ARGS REDIRECTS | true` in bash: relctl's own status (137 when it had to be killed), and bash's stderr. */
async function shell(args: string[], redirects: string, e: NodeJS.ProcessEnv): Promise<{ code: number; stderr: string }> {
  const line = `timeout -s KILL 15 node "$0" "$@" ${redirects} | true; exit "\${PIPESTATUS[0]}"`;
  const r = await execa('bash', ['-c', line, binPath, ...args], { cwd: repoRoot, env: e, extendEnv: false, reject: false, timeout: 30_000 });
  return { code: r.exitCode ?? -1, stderr: String(r.stderr) };
}

/** What must never reach a surviving stream: the crash report of a write to the closed one. */
const noise = /internal error|Unhandled 'error'|EPIPE/;

/** relctl ended by itself (not SIGKILLed by the test), soon after the close, with `code`. */
function expectEndedBy(r: Ended, code: number): void {
  expect(r.signal, 'relctl did not end by itself').toBeNull();
  expect(r.code, r.stderr).toBe(code);
  expect(r.ms).toBeLessThan(10_000);
}

async function leftovers(tmp: string): Promise<string[]> {
  return (await readdir(tmp)).filter((n) => n.startsWith('relctl-'));
}

async function waitFor(what: string, ready: () => Promise<boolean> | boolean, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (!(await ready())) {
    if (Date.now() > until) throw new Error(`${what} never happened`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

let demo: { dir: string; home: string; tmp: string };
beforeAll(async () => {
  const t = await tempDir('relctl-pipes-');
  const { dir, home } = await demoInTemp(t.path);
  const tmp = path.join(t.path, 'tmp');
  await mkdir(tmp);
  demo = { dir, home, tmp };
  return () => t[Symbol.asyncDispose]();
});

describe('a closed stdout or stderr, short commands', () => {
  it('`relctl preflight --offline 2>&1 | true` ends by itself with its own status or 141', async () => {
    const r = await shell(['preflight', '--offline', '--cwd', demo.dir], '2>&1', env(demo.home, demo.tmp));
    expect([1, 141], `exit ${r.code} (137: killed after 15 s)`).toContain(r.code);
    expect(r.stderr).not.toMatch(noise);
  }, 40_000);

  it('`relctl bogus 2>&1 | true` ends by itself with the usage status or 141', async () => {
    const r = await shell(['bogus'], '2>&1', env(demo.home, demo.tmp));
    expect([2, 141], `exit ${r.code} (137: killed after 15 s)`).toContain(r.code);
    expect(r.stderr).not.toMatch(noise);
  }, 40_000);

  it("`relctl --help | true` says nothing on stderr (it said Unhandled 'error' event)", async () => {
    const r = await shell(['--help'], '', env(demo.home, demo.tmp));
    expect([0, 141], `exit ${r.code}`).toContain(r.code);
    expect(r.stderr).toBe('');
  }, 40_000);

  it('`relctl preflight 2>err | true` writes no internal error to err', async () => {
    const err = path.join(demo.tmp, '..', 'err');
    const r = await shell(['preflight', '--offline', '--verbose', '--cwd', demo.dir], `2>"${err}"`, env(demo.home, demo.tmp));
    expect([1, 141], `exit ${r.code}`).toContain(r.code);
    const written = await readFile(err, 'utf8');
    // --verbose: stderr (the file) is written all along, and is still written after stdout closed.
    expect(written).toContain('read pom.xml');
    expect(written).not.toMatch(noise);
  }, 40_000);

  it('a stdout that fails for another reason (`> /dev/full`) is said on stderr, and the run is no success (exit 3)', async () => {
    const full = await open('/dev/full', 'w');
    const r = await start(['preflight', '--help'], env(demo.home, demo.tmp), { stdout: full.fd }).ended.finally(() => full.close());
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toContain('Cannot write to stdout (ENOSPC)');
    expect(r.stderr).not.toMatch(/internal error|Unhandled 'error'/);
  }, 20_000);
});

describe('a closed stdout or stderr, relctl sandbox', () => {
  /** `relctl sandbox` (its temp folder under `tmp`) once it printed its ready line. */
  const readySandbox = async (tmp: string): Promise<Started> => {
    const run = start(['sandbox'], env(demo.home, tmp));
    await waitFor('the ready line', () => run.stdout().includes('\n'), 10_000);
    return run;
  };

  it('both closed before it is ready (`relctl sandbox 2>&1 | head -0`): it closes, removes its temp folder and exits 141', async () => {
    await using t = await tempDir();
    const run = start(['sandbox'], env(demo.home, t.path));
    run.close('stdout', 'stderr');
    const r = await run.ended;
    expectEndedBy(r, 141);
    expect(await leftovers(t.path)).toEqual([]);
  }, 30_000);

  it('its log reader dies: at the next log line it closes, removes its temp folder and exits 141, quietly', async () => {
    await using t = await tempDir();
    const run = await readySandbox(t.path);
    expect(await leftovers(t.path)).toHaveLength(1);
    const port = Number(/stagingApiUrl=http:\/\/127\.0\.0\.1:(\d+)\//.exec(run.stdout())?.[1]);
    run.close('stderr');
    // A client that hangs up mid-upload is one line on stderr: the write that finds it closed.
    await hangUpMidUpload(port);
    const r = await run.ended;
    expectEndedBy(r, 141);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    expect(r.stdout).not.toMatch(noise);
    expect(await leftovers(t.path)).toEqual([]);
  }, 30_000);

  it('stdout closed after the ready line (`relctl sandbox | head -1`): it serves on, and SIGTERM still ends it cleanly', async () => {
    await using t = await tempDir();
    const run = await readySandbox(t.path);
    const state = /portalUrl=(\S+)\/portal /.exec(run.stdout())![1] + '/sandbox/state';
    run.close('stdout');
    await new Promise((r) => setTimeout(r, 300));
    expect((await fetch(state)).status).toBe(200);
    run.child.kill('SIGTERM');
    const r = await run.ended;
    expect(r.signal).toBeNull();
    expect(r.code).toBe(0);
    expect(r.stderr).not.toMatch(noise);
    expect(await leftovers(t.path)).toEqual([]);
  }, 30_000);
});

describe('a closed stdout or stderr, relctl rehearse', () => {
  const rehearseEnv = (tmp: string, pidFile: string): NodeJS.ProcessEnv =>
    env(demo.home, tmp, {
      PATH: `${fakeBin}:${process.env.PATH ?? ''}`,
      RELCTL_FAKE_MVN_SLEEP: 'release:prepare',
      RELCTL_FAKE_MVN_SLEEP_PID: pidFile,
      RELCTL_FAKE_MVN_SLEEP_TICK: '1',
    });

  it('`relctl rehearse --sign 2>&1 | head -1`: it stops at its next line and exits 141, leaving no temp folder', async () => {
    await using t = await tempDir();
    const tmp = path.join(t.path, 'tmp');
    await mkdir(tmp);
    const run = start(['rehearse', '--sign', '--cwd', demo.dir], rehearseEnv(tmp, path.join(t.path, 'mvn.pid')));
    await waitFor('the first line', () => run.stderr().includes('\n'), 10_000);
    run.close('stdout', 'stderr');
    const r = await run.ended;
    expectEndedBy(r, 141);
    expect(await leftovers(tmp)).toEqual([]);
  }, 40_000);

  it('closed while Maven builds the throwaway copy: Maven, the key, its agent, the sandbox and the copy are gone; exit 141', async () => {
    await using t = await tempDir();
    const tmp = path.join(t.path, 'tmp');
    await mkdir(tmp);
    const pidFile = path.join(t.path, 'mvn.pid');
    // --verbose echoes what the build prints: relctl writes every 0.2 s while Maven runs.
    const run = start(['rehearse', '--sign', '--verbose', '--cwd', demo.dir], rehearseEnv(tmp, pidFile), { limitMs: 90_000 });
    await waitFor('the build', async () => (await readFile(pidFile, 'utf8').catch(() => '')).trim() !== '', 60_000);
    const mvnPid = Number((await readFile(pidFile, 'utf8')).trim());
    expect(processAlive(mvnPid)).toBe(true);
    expect(await leftovers(tmp)).not.toEqual([]);
    run.close('stdout', 'stderr');
    const r = await run.ended;
    expectEndedBy(r, 141);
    expect(processAlive(mvnPid), 'the build was stopped').toBe(false);
    expect(await readdir(tmp)).toEqual([]);
    expect(await processesUnder(tmp)).toEqual([]);
  }, 120_000);
});

/** Sends the start of an upload, then hangs up: the sandbox logs one line about it. */
async function hangUpMidUpload(port: number): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(
        'PUT /staging/service/local/staging/deploy/maven2/org/gone/x/1/x-1.jar HTTP/1.1\r\nHost: 127.0.0.1\r\n' +
          `Authorization: Basic ${Buffer.from('sandbox:sandbox').toString('base64')}\r\nContent-Length: 100000\r\n\r\nonly a part`,
      );
      setTimeout(() => {
        socket.destroy();
        resolve();
      }, 100);
    });
    // Refused: a line the sandbox logged on its own (after its ready line) met the closed stderr
    // first and it has already ended, as the test expects of the next line; the caller checks how.
    socket.on('error', (e: NodeJS.ErrnoException) => (e.code === 'ECONNREFUSED' ? resolve() : reject(e)));
  });
}
