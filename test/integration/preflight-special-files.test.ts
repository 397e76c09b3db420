import { execFileSync } from 'node:child_process';
import { mkdir, open, symlink } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir, writeTree } from '../helpers/temp.js';

// Special files where descriptors belong (issue 10): a FIFO pom.xml used to block preflight
// forever (deaf to Ctrl-C), and pom.xml linked to /dev/zero filled memory. Every run here must
// end on its own, well inside the bound, with the path and the reason.
const home = path.resolve(import.meta.dirname, '../fixtures/maven/home');
const bound = 20_000;

interface Doc {
  ok: boolean;
  findings: { code: string; file?: string; line?: number; message: string }[];
}

const pom = (body: string): string => `<?xml version="1.0" encoding="UTF-8"?>\n<project>\n  <modelVersion>4.0.0</modelVersion>\n${body}\n</project>\n`;
const top = pom('  <groupId>org.ex</groupId>\n  <artifactId>top</artifactId>\n  <version>1.0.0-SNAPSHOT</version>\n  <packaging>pom</packaging>\n  <modules><module>core</module></modules>');

async function preflight(cwd: string, extra: string[] = []) {
  const started = Date.now();
  const r = await runCli(['preflight', '--offline', '--json', '--cwd', cwd, ...extra], { home, timeoutMs: bound });
  return { ...r, ms: Date.now() - started };
}

async function sparse(file: string, bytes: number): Promise<void> {
  const handle = await open(file, 'w');
  await handle.truncate(bytes);
  await handle.close();
}

describe('preflight on special and huge descriptor files', () => {
  it.each([
    ['a FIFO', 'is a FIFO (named pipe), not a regular file', (file: string) => Promise.resolve(execFileSync('mkfifo', [file])).then(() => undefined)],
    ['a link to /dev/zero', 'is a character device, not a regular file', (file: string) => symlink('/dev/zero', file)],
    ['a sparse 2 GiB file', 'is larger than 32 MiB (2048 MiB)', (file: string) => sparse(file, 2 * 1024 ** 3)],
  ])('reports a top-level pom.xml that is %s as xml-malformed and exits 1', async (_what, reason, make) => {
    await using dir = await tempDir();
    await make(path.join(dir.path, 'pom.xml'));
    const r = await preflight(dir.path);
    expect(r.ms).toBeLessThan(bound);
    expect(r.exitCode).toBe(1);
    const doc = JSON.parse(r.stdout) as Doc;
    expect(doc.findings).toContainEqual(expect.objectContaining({ code: 'xml-malformed', file: 'pom.xml', message: expect.stringContaining(reason) }));
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('reports a module POM that is a FIFO as xml-malformed in that module; a link to a device or a directory is module-missing', async () => {
    await using dir = await tempDir();
    await writeTree(dir.path, { 'pom.xml': top.replace('<module>core</module>', '<module>core</module><module>zero</module><module>dir</module>') });
    await mkdir(path.join(dir.path, 'core'));
    execFileSync('mkfifo', [path.join(dir.path, 'core', 'pom.xml')]);
    await mkdir(path.join(dir.path, 'zero'));
    await symlink('/dev/zero', path.join(dir.path, 'zero', 'pom.xml'));
    await mkdir(path.join(dir.path, 'dir', 'pom.xml'), { recursive: true });
    const r = await preflight(dir.path);
    expect(r.exitCode).toBe(1);
    const doc = JSON.parse(r.stdout) as Doc;
    expect(doc.findings).toContainEqual(expect.objectContaining({ code: 'xml-malformed', file: 'core/pom.xml', message: expect.stringContaining('FIFO') }));
    // The link leaves the project, which the reactor walk refuses before reading anything.
    expect(doc.findings).toContainEqual(expect.objectContaining({ code: 'module-missing', message: expect.stringContaining('"zero" listed in pom.xml resolves (through a link) outside the project') }));
    expect(doc.findings).toContainEqual(expect.objectContaining({ code: 'module-missing', message: expect.stringContaining('dir/pom.xml is a directory') }));
  });

  it('reports a settings file that is a FIFO as xml-malformed', async () => {
    await using dir = await tempDir();
    await writeTree(dir.path, { 'pom.xml': top.replace('<modules><module>core</module></modules>', '') });
    const settings = path.join(dir.path, 'settings.xml');
    execFileSync('mkfifo', [settings]);
    const r = await preflight(dir.path, ['--settings', settings]);
    expect(r.exitCode).toBe(1);
    const doc = JSON.parse(r.stdout) as Doc;
    expect(doc.findings).toContainEqual(expect.objectContaining({ code: 'xml-malformed', file: settings, message: expect.stringContaining('is a FIFO (named pipe)') }));
  });

  it('does not wait on a jreleaser.yml that is a FIFO: it is skipped like a missing one', async () => {
    await using dir = await tempDir();
    await writeTree(dir.path, { 'pom.xml': top.replace('<modules><module>core</module></modules>', '') });
    execFileSync('mkfifo', [path.join(dir.path, 'jreleaser.yml')]);
    const r = await preflight(dir.path, []);
    const doc = JSON.parse(r.stdout) as Doc & { route: { kind: string } };
    expect(doc.route.kind).not.toBe('portal-plugin');
  });

  it('does not wait on a .mvn/maven.config that is a FIFO', async () => {
    await using dir = await tempDir();
    await writeTree(dir.path, { 'pom.xml': top.replace('<modules><module>core</module></modules>', ''), '.mvn/jvm.config': '' });
    execFileSync('mkfifo', [path.join(dir.path, '.mvn', 'maven.config')]);
    const r = await preflight(dir.path, []);
    expect(JSON.parse(r.stdout)).toHaveProperty('route');
  });

  it('stops with a usage error (exit 2) naming relctl.config.json when it is a FIFO', async () => {
    await using dir = await tempDir();
    await writeTree(dir.path, { 'pom.xml': top });
    execFileSync('mkfifo', [path.join(dir.path, 'relctl.config.json')]);
    const r = await preflight(dir.path);
    expect(r.exitCode).toBe(2);
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: false, error: { message: expect.stringContaining('relctl.config.json') } });
    expect(r.stderr).toContain('is a FIFO (named pipe), not a regular file');
  });

  it('skips a Gradle script that is a FIFO with a note naming it instead of waiting for a writer', async () => {
    await using dir = await tempDir();
    await writeTree(dir.path, { 'settings.gradle': "rootProject.name = 'x'\n", 'gradle.properties': 'version=1.0.0-SNAPSHOT\ngroup=org.ex\n' });
    execFileSync('mkfifo', [path.join(dir.path, 'build.gradle')]);
    const r = await preflight(dir.path);
    expect(r.ms).toBeLessThan(bound);
    expect([0, 1]).toContain(r.exitCode);
    expect(r.stderr).toContain('build.gradle could not be read (not a regular file: a FIFO (named pipe))');
  });
});
