import { mkdir } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { gitEnv, tempDir } from '../helpers/temp.js';
import { demoInTemp } from './release-fixture.js';

/**
 * DESIGN §3: with --json, every failure is exactly one document on stdout,
 * `{"ok": false, "error": {"code", "message", "fix", ...}}` (check commands add their findings).
 * One failure path of every command, in a project without a token, a key or a build.
 */
interface FailureDoc {
  ok: boolean;
  error: { code: string; kind?: string; message: string; fix: string };
}

describe('--json failures: one document with error.code, message and fix', () => {
  it('every command', async () => {
    await using t = await tempDir();
    const { dir: project, home } = await demoInTemp(t.path);
    const empty = path.join(t.path, 'empty');
    await mkdir(empty);
    const busy = net.createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const busyPort = (busy.address() as net.AddressInfo).port;
    const env = { ...gitEnv(home), GNUPGHOME: path.join(t.path, 'no-gnupg') };
    const cases: { args: string[]; exit: number; code: string }[] = [
      { args: ['preflight', '--offline'], exit: 1, code: 'preflight-failed' },
      { args: ['preflight', '--cwd', path.join(t.path, 'missing')], exit: 2, code: 'usage' },
      { args: ['keys', 'check'], exit: 2, code: 'no-signing-key' },
      { args: ['keys', 'export'], exit: 2, code: 'no-signing-key' },
      { args: ['keys', 'send', '--yes'], exit: 2, code: 'no-signing-key' },
      { args: ['keys'], exit: 2, code: 'usage' },
      { args: ['verify'], exit: 2, code: 'nothing-built' },
      { args: ['upload', '--group-id', 'org.example.relctl'], exit: 2, code: 'confirmation-needed' },
      { args: ['upload', '--group-id', 'org.example.relctl', '--yes', '--no-verify'], exit: 2, code: 'missing-credentials' },
      { args: ['search', '--cwd', empty], exit: 2, code: 'no-group-id' },
      { args: ['status'], exit: 2, code: 'missing-credentials' },
      { args: ['publish'], exit: 2, code: 'missing-credentials' },
      { args: ['drop'], exit: 2, code: 'usage' },
      { args: ['release', '--offline'], exit: 1, code: 'preflight-failed' },
      { args: ['run', 'verify', 'bogus'], exit: 2, code: 'unknown-step' },
      { args: ['rehearse', '--cwd', empty], exit: 2, code: 'no-build' },
      { args: ['sandbox', '--port', String(busyPort)], exit: 2, code: 'usage' },
      { args: ['bogus'], exit: 2, code: 'usage' },
      { args: ['preflight', '--bogus'], exit: 2, code: 'usage' },
    ];
    try {
      for (const c of cases) {
        const args = c.args.includes('--cwd') ? c.args : [...c.args, '--cwd', project];
        const r = await runCli([...args, '--json'], { home, env });
        const what = `relctl ${c.args.join(' ')} --json\nstdout: ${r.stdout}\nstderr: ${r.stderr}`;
        expect(r.exitCode, what).toBe(c.exit);
        let doc: FailureDoc;
        try {
          doc = JSON.parse(r.stdout) as FailureDoc;
        } catch {
          throw new Error(`not exactly one JSON document on stdout: ${what}`);
        }
        expect(doc.ok, what).toBe(false);
        expect(doc.error, what).toMatchObject({ code: c.code, message: expect.any(String) as unknown, fix: expect.any(String) as unknown });
        expect(doc.error.message.length, what).toBeGreaterThan(0);
        expect(doc.error.fix.length, what).toBeGreaterThan(0);
        // The earlier field name stays as an alias for scripts written against it.
        expect(doc.error.kind, what).toBe(doc.error.code);
      }
    } finally {
      busy.close();
    }
  }, 120_000);
});
