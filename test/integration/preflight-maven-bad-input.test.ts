import { mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { gitRepo, tempDir, writeTree } from '../helpers/temp.js';

const home = path.resolve(import.meta.dirname, '../fixtures/maven/home');

const pom = (body: string): string => `<?xml version="1.0" encoding="UTF-8"?>\n<project>\n  <modelVersion>4.0.0</modelVersion>\n${body}\n</project>\n`;
const child = (artifactId: string, extra = ''): string =>
  pom(`  <parent><groupId>org.ex</groupId><artifactId>top</artifactId><version>1.0.0-SNAPSHOT</version></parent>\n  <artifactId>${artifactId}</artifactId>\n  <name>${artifactId}</name>\n${extra}`);

interface Doc {
  ok: boolean;
  findings: { code: string; file?: string; line?: number; message: string }[];
}

describe('preflight on broken Maven input', () => {
  it('turns duplicates, cycles, escapes, directories, garbage and parent cycles into findings, without a stack trace', async () => {
    await using dir = await tempDir();
    await gitRepo(dir.path, dir.path, {
      'pom.xml': pom(`  <parent><groupId>org.example.eco</groupId><artifactId>eco-parent</artifactId><version>44</version></parent>
  <groupId>org.ex</groupId>
  <artifactId>top</artifactId>
  <version>1.0.0-SNAPSHOT</version>
  <packaging>pom</packaging>
  <modules>
    <module>a</module>
    <module>a</module>
    <module>./a/</module>
    <module>loop</module>
    <module>../outside</module>
    <module>dirpom</module>
    <module>garbage</module>
    <module>p1</module>
    <module>p2</module>
  </modules>`),
      'a/pom.xml': child('a'),
      'loop/pom.xml': child('loop', '  <modules><module>..</module></modules>'),
      'dirpom/pom.xml/README': 'a folder named pom.xml',
      'garbage/pom.xml': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff, 0xfe, 0x3c, 0x3e]),
      'p1/pom.xml': pom('  <parent><groupId>org.ex</groupId><artifactId>p2</artifactId><version>1</version><relativePath>../p2</relativePath></parent>\n  <artifactId>p1</artifactId><version>1</version>'),
      'p2/pom.xml': pom('  <parent><groupId>org.ex</groupId><artifactId>p1</artifactId><version>1</version><relativePath>../p1</relativePath></parent>\n  <artifactId>p2</artifactId><version>1</version>'),
    });
    await mkdir(path.join(dir.path, 'sub'), { recursive: true });
    await symlink(dir.path, path.join(dir.path, 'sub', 'self'));

    const r = await runCli(['preflight', '--offline', '--json', '--cwd', dir.path], { home, timeoutMs: 30_000 });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    const doc = JSON.parse(r.stdout) as Doc;
    const at = (code: string, line: number): string[] =>
      doc.findings.filter((f) => f.code === code && f.file === 'pom.xml' && f.line === line).map((f) => f.message);
    // a is listed three times: walked once, so no finding appears twice and none says a is missing.
    expect(new Set(doc.findings.map((f) => `${f.code}|${f.file}|${f.line}`)).size).toBe(doc.findings.length);
    expect(doc.findings.filter((f) => f.code === 'module-missing' && /"a"|"\.\/a\/"/.test(f.message))).toEqual([]);
    expect(doc.findings.find((f) => f.code === 'module-missing' && f.file === 'loop/pom.xml')?.message).toContain('cycle');
    expect(at('module-missing', 14)[0]).toContain('outside the project');
    expect(at('module-missing', 15)[0]).toContain('is a directory');
    expect(doc.findings.find((f) => f.file === 'garbage/pom.xml')?.code).toBe('xml-malformed');
    expect(doc.findings.some((f) => f.code === 'parent-unresolved' && f.message.includes('cycle'))).toBe(true);
  });

  it('follows module folders that are links by their real paths: one to a module is walked once, one out of the project is refused', async () => {
    await using dir = await tempDir();
    await using outside = await tempDir();
    await writeTree(outside.path, { 'pom.xml': child('stranger') });
    await gitRepo(dir.path, dir.path, {
      'pom.xml': pom(`  <groupId>org.ex</groupId>
  <artifactId>top</artifactId>
  <version>1.0.0-SNAPSHOT</version>
  <packaging>pom</packaging>
  <modules>
    <module>a</module>
    <module>alias</module>
    <module>out</module>
    <module>b</module>
  </modules>`),
      // Each module with a finding of its own, to show it was walked.
      'a/pom.xml': child('a', '  <description>${undefined.in.a}</description>'),
      'b/pom.xml': child('b', '  <description>${undefined.in.b}</description>'),
    });
    await symlink(path.join(dir.path, 'a'), path.join(dir.path, 'alias'));
    await symlink(outside.path, path.join(dir.path, 'out'));
    const r = await runCli(['preflight', '--offline', '--json', '--cwd', dir.path], { home, timeoutMs: 30_000 });
    const doc = JSON.parse(r.stdout) as Doc;
    const missing = doc.findings.filter((f) => f.code === 'module-missing').map((f) => f.message);
    expect(missing).toEqual(['The module "out" listed in pom.xml resolves (through a link) outside the project folder.']);
    // alias is a: walked once, as a/pom.xml; b (listed after the links) is walked as usual.
    expect(doc.findings.some((f) => f.file?.startsWith('alias/') === true)).toBe(false);
    expect(doc.findings.some((f) => f.message.includes('stranger'))).toBe(false);
    const unresolved = doc.findings.filter((f) => f.code === 'unresolved-property').map((f) => f.file);
    expect(unresolved.sort()).toEqual(['a/pom.xml', 'b/pom.xml']);
  });

  it('reads a 20 MB POM and reports what is wrong with it', async () => {
    await using dir = await tempDir();
    const developer = '    <developer><name>someone</name><organization>Example</organization></developer>\n';
    const huge = pom(`  <groupId>org.ex</groupId>\n  <artifactId>huge</artifactId>\n  <version>1.0.0-SNAPSHOT</version>\n  <developers>\n${developer.repeat(Math.ceil(20e6 / developer.length))}  </developers>`);
    // Not committed: git would spend seconds on 20 MB, and only the POM model is under test here.
    await writeTree(dir.path, { 'pom.xml': huge });
    const r = await runCli(['preflight', '--offline', '--json', '--cwd', dir.path], { home, timeoutMs: 50_000 });
    expect(r.exitCode).toBe(1);
    const doc = JSON.parse(r.stdout) as Doc;
    const incomplete = doc.findings.find((f) => f.code === 'developers-incomplete');
    expect(incomplete).toMatchObject({ file: 'pom.xml', line: 8 });
    expect(doc.findings.map((f) => f.code)).toContain('missing-distribution');
  });

  it('reports a pom.xml that is a directory or is not XML at the top level as xml-malformed', async () => {
    await using dir = await tempDir();
    await gitRepo(dir.path, dir.path, { 'pom.xml': 'this is not xml <<<\n' });
    const r = await runCli(['preflight', '--offline', '--json', '--cwd', dir.path], { home });
    expect(r.exitCode).toBe(1);
    expect((JSON.parse(r.stdout) as Doc).findings).toContainEqual(expect.objectContaining({ code: 'xml-malformed', file: 'pom.xml', line: 1 }));

    await using dir2 = await tempDir();
    await gitRepo(dir2.path, dir2.path, { 'pom.xml/keep': '' });
    const r2 = await runCli(['preflight', '--offline', '--json', '--cwd', dir2.path], { home });
    expect(r2.exitCode).toBe(1);
    expect((JSON.parse(r2.stdout) as Doc).findings).toContainEqual(expect.objectContaining({ code: 'xml-malformed', file: 'pom.xml' }));
  });

  it('reports a broken settings file as xml-malformed with its line', async () => {
    await using dir = await tempDir();
    await gitRepo(dir.path, dir.path, { 'pom.xml': pom('  <groupId>g</groupId><artifactId>a</artifactId><version>1.0.0-SNAPSHOT</version>'), 's.xml': '<settings>\n  <servers>\n</settings>\n' });
    const r = await runCli(['preflight', '--offline', '--json', '--cwd', dir.path, '--settings', path.join(dir.path, 's.xml')], { home });
    const doc = JSON.parse(r.stdout) as Doc;
    expect(doc.findings).toContainEqual(expect.objectContaining({ code: 'xml-malformed', file: path.join(dir.path, 's.xml'), line: 3 }));
    expect(doc.findings.map((f) => f.code)).not.toContain('server-id-mismatch');
  });
});
