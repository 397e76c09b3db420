import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The built CLI (bin/relctl.js → bundle/, made by `npm test`'s build): its start paths must say
// exactly what the unbundled modules say.
const root = path.resolve(import.meta.dirname, '..', '..');
const bin = path.join(root, 'bin', 'relctl.js');
const env = { ...process.env, CI: 'true', NO_COLOR: '1', COLUMNS: '100' };
const run = (args: string[]) => execFileSync(process.execPath, [bin, ...args], { cwd: root, env, encoding: 'utf8' });
const runDist = (args: string[]) =>
  execFileSync(process.execPath, ['--input-type=module', '-e', `const { main } = await import(${JSON.stringify(path.join(root, 'dist', 'cli.js'))}); process.exitCode = await main(${JSON.stringify(args)}, { env: process.env, stdoutIsTTY: false, stderrIsTTY: false, stdinIsTTY: false });`], { cwd: root, env, encoding: 'utf8' });

describe('the bundled CLI, loaded in chunks', () => {
  it('prints the top-level help from the build-time command list exactly as from the command modules', () => {
    const bundled = run(['--help']);
    expect(bundled).toContain('preflight [options]');
    expect(bundled).toContain('run [options] <steps...>');
    expect(bundled).toBe(runDist(['--help']));
  });

  it('prints a command help and its version the same way', () => {
    expect(run(['status', '--help'])).toBe(runDist(['status', '--help']));
    const version = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;
    expect(run(['--version'])).toBe(`${version}\n`);
    expect(run(['-V'])).toBe(runDist(['-V']));
  });

  it('runs a command whose modules sit in several chunks (preflight of the demo, as JSON)', () => {
    let out = '';
    try {
      out = run(['preflight', '--offline', '--json', '--cwd', path.join(root, 'examples', 'demo')]);
    } catch (error) {
      out = String((error as { stdout?: string }).stdout);
    }
    const report = JSON.parse(out) as { route: { kind: string }; findings: unknown[] };
    expect(report.route.kind).toBe('staging-api');
  });
});
