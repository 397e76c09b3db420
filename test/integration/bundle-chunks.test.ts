import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
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

const runChunks = (args: string[]) =>
  execFileSync(process.execPath, ['-e', `require(${JSON.stringify(path.join(root, 'bin', 'load-bundle.cjs'))}).loadBundle('short').exports.main(${JSON.stringify(args)}, { env: process.env, stdoutIsTTY: false, stderrIsTTY: false, stdinIsTTY: false }).then((code) => { process.exitCode = code; });`], { cwd: root, env, encoding: 'utf8' });
const stdoutOf = (f: () => string): string => {
  try {
    return f();
  } catch (error) {
    return String((error as { stdout?: string }).stdout);
  }
};
const demo = path.join(root, 'examples', 'demo');

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
    const report = JSON.parse(stdoutOf(() => run(['preflight', '--offline', '--json', '--cwd', demo]))) as { route: { kind: string }; findings: unknown[] };
    expect(report.route.kind).toBe('staging-api');
  });

  it('runs a Maven preflight from the pack alone, and says there what the chunks say', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'relctl-pack-'));
    try {
      // Every file of bundle/ the start reads, written down at exit.
      const log = path.join(dir, 'read.txt');
      const hook = path.join(dir, 'hook.cjs');
      writeFileSync(hook, `const fs = require('node:fs'); const read = fs.readFileSync; const seen = [];
fs.readFileSync = function (file, ...rest) { if (String(file).includes('${path.sep}bundle${path.sep}')) seen.push(require('node:path').basename(String(file))); return read.call(this, file, ...rest); };
process.on('exit', () => fs.writeFileSync(${JSON.stringify(log)}, seen.join('\\n')));`);
      const args = ['preflight', '--offline', '--json', '--cwd', demo];
      const packed = stdoutOf(() => execFileSync(process.execPath, ['-r', hook, bin, ...args], { cwd: root, env, encoding: 'utf8' }));
      expect(readFileSync(log, 'utf8').split('\n')).toEqual(['preflight.pack.cjs', 'preflight.pack.short.code-cache']);
      expect((JSON.parse(packed) as { route: { kind: string } }).route.kind).toBe('staging-api');
      expect(packed).toBe(stdoutOf(() => runChunks(args)));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
