import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { binPath } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';
import { demoInTemp, releaseEnv } from './release-fixture.js';

/**
 * A real pseudo-terminal (util-linux `script`) whose width is set with `stty cols N`: spinners
 * only on a terminal at least one column wide (issue 10 item 5). A key server that answers after
 * 1.5 s keeps the "Signing key check" spinner turning long enough to flood a 0-column terminal.
 */
async function inTerminal(cols: number, dir: string, env: Record<string, string>, url: string): Promise<{ output: string; flooded: boolean }> {
  const command = `stty cols ${cols} rows 24; exec node ${binPath} run keys --fingerprint ${'A'.repeat(40)} --cwd ${dir}`;
  // No CI variable at all (ora, like relctl, spins only outside CI).
  const { CI: _ci, ...inherited } = { ...process.env, ...env };
  const r = await execa('script', ['-qfec', command, '/dev/null'], {
    env: { ...inherited, NO_COLOR: '1', TERM: 'xterm', RELCTL_KEYSERVER_URL: url, RELCTL_SECONDARY_KEYSERVER_URL: url },
    extendEnv: false,
    reject: false,
    timeout: 30_000,
    // The flood this guards against wrote hundreds of MB of cursor movements within seconds.
    maxBuffer: 1_000_000,
  });
  return { output: String(r.stdout), flooded: r.isMaxBuffer };
}

describe('spinners and the terminal', () => {
  it('a 0-column terminal gets plain lines, not one line per spinner frame', async () => {
    await using t = await tempDir();
    const { dir, home } = await demoInTemp(t.path);
    const server = http.createServer((_req, res) => {
      setTimeout(() => {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('not found');
      }, 1500);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const env = { ...releaseEnv(home, path.join(t.path, 'log')), GNUPGHOME: path.join(t.path, 'gnupg') };
      const { output, flooded } = await inTerminal(0, dir, env, url);
      expect(flooded).toBe(false);
      expect(output).toContain('Signing key check');
      // Plain lines: the title when it starts and when it ends, no cursor movement.
      expect(output.length, output).toBeLessThan(5000);
      expect(output).not.toContain('\u001b[1A');
    } finally {
      server.close();
    }
  }, 60_000);

  it('the release build shows its goal, module and elapsed time in the step line, updated in place', async () => {
    await using t = await tempDir();
    const { dir, home } = await demoInTemp(t.path);
    const env: Record<string, string> = { ...releaseEnv(home, path.join(t.path, 'log')), RELCTL_FAKE_PERFORM_DEPLOY: '0', RELCTL_FAKE_MVN_PROGRESS: '2500' };
    const { CI: _ci, ...inherited } = { ...process.env, ...env };
    const r = await execa('script', ['-qfec', `stty cols 120 rows 24; exec node ${binPath} run build --cwd ${dir}`, '/dev/null'], {
      env: { ...inherited, NO_COLOR: '1', TERM: 'xterm' },
      extendEnv: false,
      reject: false,
      timeout: 45_000,
    });
    const output = String(r.stdout);
    expect(r.exitCode, output).toBe(0);
    expect(output).toMatch(/Release build · release:prepare · relctl demo core 1\.0\.0 \[2\/3\] · \d+s/);
    expect(output).toMatch(/Release build · release:perform · relctl demo core 1\.0\.0 \[2\/3\] · \d+s/);
    // On a terminal the step's line is redrawn, not one printed line per change.
    expect(output).not.toMatch(/^ {2}release:prepare · /m);
  }, 60_000);
});
