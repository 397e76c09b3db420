import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, spawnCli } from '../helpers/cli.js';
import { History } from '../helpers/history.js';
import { git, gitEnv, tempDir, type TempDir } from '../helpers/temp.js';
import { pomXml } from './upload-helpers.js';

/**
 * Issue 18 item 3: a history an attacker wrote. A 1 MB subject, 10,000 commits, a NUL byte, CRLF,
 * ANSI and OSC escapes and bidi overrides: `relctl notes` finishes in seconds (it took minutes to
 * forever: the parser's reference pattern is cubic in a line's length), nothing it prints or writes
 * holds a control character, and SIGTERM stops it and its git child at once.
 */
const controls = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
let work: TempDir;
let dir: string;

async function commitFile(message: string | Buffer): Promise<void> {
  const file = path.join(work.path, 'message.txt');
  await writeFile(file, message);
  await git(dir, work.path, 'commit', '-q', '--allow-empty', '--cleanup=verbatim', '-F', file);
}

/** `git commit` refuses a NUL byte in a message; a raw commit object has one anyway. */
async function commitWithNul(): Promise<void> {
  const env = gitEnv(work.path);
  const tree = (await execa('git', ['rev-parse', 'HEAD^{tree}'], { cwd: dir, env })).stdout.trim();
  const parent = (await execa('git', ['rev-parse', 'HEAD'], { cwd: dir, env })).stdout.trim();
  const object = `tree ${tree}\nparent ${parent}\nauthor Test <t@example.invalid> 1700000000 +0000\ncommitter Test <t@example.invalid> 1700000000 +0000\n\nfix: a NUL\0byte in the subject\n`;
  const sha = (await execa('git', ['hash-object', '-t', 'commit', '-w', '--literally', '--stdin'], { cwd: dir, env, input: object })).stdout.trim();
  await execa('git', ['update-ref', 'refs/heads/main', sha], { cwd: dir, env });
}

/** 10,000 ordinary commits in one git fast-import (seconds, not minutes of `git commit`). */
async function manyCommits(n: number): Promise<void> {
  const env = gitEnv(work.path);
  const head = (await execa('git', ['rev-parse', 'HEAD'], { cwd: dir, env })).stdout.trim();
  const parts: string[] = [];
  for (let i = 1; i <= n; i++) {
    const message = `${i % 3 === 0 ? 'feat' : 'fix'}(part${i % 7}): change number ${i}\n\nBody of change ${i}.\n`;
    parts.push(`commit refs/heads/main\ncommitter Test <t@example.invalid> ${1700000000 + i} +0000\ndata ${Buffer.byteLength(message)}\n${message}${i === 1 ? `from ${head}\n` : ''}\n`);
  }
  await execa('git', ['fast-import', '--quiet'], { cwd: dir, env, input: parts.join('') });
}

beforeAll(async () => {
  work = await tempDir();
  dir = path.join(work.path, 'demo');
  const h = await History.create(dir, work.path, { 'pom.xml': pomXml({ groupId: 'org.example', artifactId: 'demo', version: '1.0.2-SNAPSHOT' }) });
  await h.mavenRelease('demo', '1.0.0');
  await manyCommits(10_000);
  await git(dir, work.path, 'reset', '-q', '--hard', 'main');
  await commitFile(`feat: ${'a'.repeat(1_000_000)}`);
  await commitFile('fix(\x1b[31mui\x1b[0m): evil \u202Egnp.exe\u202C \x1b]8;;http://x.invalid\x07link\x1b]8;;\x07 \x1b[2J\x07bell\r\n\r\nCloses #5\r\n');
  await commitWithNul();
  await h.mavenRelease('demo', '1.0.1');
}, 120_000);

afterAll(async () => {
  await work?.[Symbol.asyncDispose]();
});

describe('relctl notes on a hostile history', () => {
  it('finishes in seconds, and no control character reaches stdout, stderr, --output or --changelog', async () => {
    const began = Date.now();
    const r = await runCli(['notes', '--cwd', dir, '--offline', '--release-version', '1.0.1', '--json'], { home: work.path, timeoutMs: 60_000 });
    const took = Date.now() - began;
    expect(r.exitCode, r.stderr).toBe(0);
    expect(took).toBeLessThan(20_000);
    const doc = JSON.parse(r.stdout) as { markdown: string; sections: { title: string; entries: { subject: string; scope: string | null; refs: string[] }[] }[] };
    const entries = doc.sections.flatMap((s) => s.entries);
    expect(entries).toHaveLength(10_003);
    expect(controls.test(doc.markdown) || controls.test(r.stderr) || controls.test(JSON.stringify(entries).replace(/\\u00[0-9a-f]{2}/g, ''))).toBe(false);
    expect(entries).toContainEqual(expect.objectContaining({ scope: 'ui', subject: 'evil gnp.exe link bell', refs: ['#5'] }));
    // git log ends a message at its NUL byte; what is before it is the entry.
    expect(entries).toContainEqual(expect.objectContaining({ subject: 'a NUL' }));
    expect(entries.find((e) => e.subject.startsWith('aaa'))!.subject).toMatch(/^a{499}…$/);

    await writeFile(path.join(dir, 'CHANGELOG.md'), '# Changelog\n\n## 1.0.0 (2026-01-01)\n\n- first\n');
    const files = await runCli(['notes', '--cwd', dir, '--offline', '--release-version', '1.0.1', '--output', 'NOTES.md', '--changelog', 'CHANGELOG.md'], { home: work.path, timeoutMs: 60_000 });
    expect(files.exitCode, files.stderr).toBe(0);
    for (const text of [files.stdout, files.stderr, await readFile(path.join(dir, 'NOTES.md'), 'utf8'), await readFile(path.join(dir, 'CHANGELOG.md'), 'utf8')]) {
      expect(controls.test(text)).toBe(false);
    }
  }, 120_000);

  it('a history holding more than 64 MB of messages (70 subjects of 1 MB) is read whole', async () => {
    const big = path.join(work.path, 'big');
    const h = await History.create(big, work.path, { 'pom.xml': pomXml({ groupId: 'org.example', artifactId: 'big', version: '2.0.0-SNAPSHOT' }) });
    await h.tag('big-1.0.0');
    const env = gitEnv(work.path);
    const head = (await execa('git', ['rev-parse', 'HEAD'], { cwd: big, env })).stdout.trim();
    const subject = `fix: ${'b'.repeat(1_000_000)}\n`;
    const stream = Array.from({ length: 70 }, (_, i) => `commit refs/heads/main\ncommitter T <t@example.invalid> ${1700000000 + i} +0000\ndata ${subject.length}\n${subject}${i === 0 ? `from ${head}\n` : ''}\n`).join('');
    await execa('git', ['fast-import', '--quiet'], { cwd: big, env, input: stream });
    const r = await runCli(['notes', '--cwd', big, '--offline', '--since', 'big-1.0.0', '--to', 'main', '--json'], { home: work.path, timeoutMs: 60_000 });
    expect(r.exitCode, r.stderr.slice(0, 2000)).toBe(0);
    const doc = JSON.parse(r.stdout) as { sections: { title: string; entries: unknown[] }[] };
    expect(doc.sections).toMatchObject([{ title: 'Fixes' }]);
    expect(doc.sections[0]!.entries).toHaveLength(70);
  }, 120_000);

  it('SIGTERM while git reads the history stops git and exits 130 within seconds', async () => {
    const bin = path.join(work.path, 'slow-git');
    const pidFile = path.join(work.path, 'git-log.pid');
    const realGit = (await execa('sh', ['-c', 'command -v git'])).stdout.trim();
    await mkdir(bin, { recursive: true });
    // A git whose `log` hangs (a huge history on a slow disk); everything else is the real git.
    await writeFile(path.join(bin, 'git'), `#!/bin/sh\nfor a in "$@"; do if [ "$a" = log ]; then echo $$ > "${pidFile}"; exec sleep 60; fi; done\nexec ${realGit} "$@"\n`);
    await chmod(path.join(bin, 'git'), 0o755);
    const child = spawnCli(['notes', '--cwd', dir, '--offline', '--release-version', '1.0.1'], { env: { ...gitEnv(work.path), PATH: `${bin}:${process.env.PATH ?? ''}` } });
    let pid: number | undefined;
    for (let i = 0; i < 200 && pid === undefined; i++) {
      await new Promise((r) => setTimeout(r, 100));
      pid = Number(await readFile(pidFile, 'utf8').catch(() => '')) || undefined;
    }
    expect(pid, 'git log never started').toBeDefined();
    const signalled = Date.now();
    child.kill('SIGTERM');
    const result = await child;
    expect(Date.now() - signalled).toBeLessThan(5_000);
    expect(result.exitCode).toBe(130);
    const alive = (): boolean => {
      try {
        process.kill(pid!, 0);
        return true;
      } catch {
        return false;
      }
    };
    for (let i = 0; i < 20 && alive(); i++) await new Promise((r) => setTimeout(r, 100));
    expect(alive(), 'the git child outlived relctl').toBe(false);
  }, 60_000);
});
