import { PassThrough } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir, writeTree } from '../helpers/temp.js';

describe('CLI shell', () => {
  it('prints the package version', async () => {
    const r = await runCli(['--version']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('exits 2 with a cause and a fix for a --cwd that does not exist', async () => {
    const r = await runCli(['preflight', '--cwd', '/definitely/not/here']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('no such directory');
    expect(r.stderr).toContain('fix:');
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  it('exits 2 for an unknown --format and for a folder with no build', async () => {
    await using dir = await tempDir();
    expect((await runCli(['preflight', '--format', 'xml', '--cwd', dir.path])).exitCode).toBe(2);
    const r = await runCli(['preflight', '--cwd', dir.path, '--json']);
    expect(r.exitCode).toBe(2);
    const doc = JSON.parse(r.stdout) as { ok: boolean; error: { kind: string } };
    expect(doc).toMatchObject({ ok: false, error: { kind: 'no-build' } });
  });

  it('rejects an invalid relctl.config.json naming the key (exit 2)', async () => {
    await using dir = await tempDir();
    await writeTree(dir.path, {
      'pom.xml': '<project/>',
      'relctl.config.json': JSON.stringify({ stagingApiUrl: 'ftp://x', tokenPassword: 'x' }),
    });
    const r = await runCli(['preflight', '--offline', '--cwd', dir.path]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('"stagingApiUrl"');
    expect(r.stderr).toContain('"tokenPassword"');
    expect(r.stderr).toContain('RELCTL_TOKEN_PASSWORD');
  });

  it('with --json, an internal error (a bug) still prints exactly one JSON document on stdout', async () => {
    vi.resetModules();
    vi.doMock('../../src/commands/registry.js', async (importOriginal) => {
      const real = await importOriginal<typeof import('../../src/commands/registry.js')>();
      const define: import('../../src/commands/define.js').Define = (program, action) => {
        program.command('boom').action(
          action(async () => {
            throw new TypeError('boom');
          }),
        );
      };
      return { ...real, commandModules: { boom: async () => ({ define }) } };
    });
    const stdout = new PassThrough();
    const chunks: string[] = [];
    stdout.on('data', (c: Buffer) => chunks.push(c.toString()));
    const write = vi.spyOn(process.stdout, 'write').mockImplementation((c: string | Uint8Array) => stdout.write(c));
    const errWrite = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const { main } = await import('../../src/cli.js');
      const code = await main(['boom', '--json'], { env: { CI: 'true' }, stdoutIsTTY: false, stderrIsTTY: false, stdinIsTTY: false });
      expect(code).toBe(1);
    } finally {
      write.mockRestore();
      errWrite.mockRestore();
      vi.doUnmock('../../src/commands/registry.js');
      vi.resetModules();
    }
    expect(JSON.parse(chunks.join(''))).toMatchObject({ ok: false, error: { code: 'internal', kind: 'internal', message: 'boom', fix: expect.stringContaining('bug') as unknown } });
  });

  it('rejects a bad RELCTL_* value naming the variable (exit 2)', async () => {
    await using dir = await tempDir();
    await writeTree(dir.path, { 'pom.xml': '<project/>' });
    const r = await runCli(['preflight', '--offline', '--cwd', dir.path], { env: { RELCTL_TIMEOUT: 'soon' } });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('RELCTL_TIMEOUT');
  });
});
