import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { unifiedDiff } from './unified-diff.js';

/** Applies `diff` to `before` with real `git apply` (what a reviewer would run) and returns the result. */
function gitApply(before: string, diff: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'relctl-diff-'));
  try {
    writeFileSync(path.join(dir, 'f'), before);
    writeFileSync(path.join(dir, 'p.diff'), diff);
    execFileSync('git', ['apply', 'p.diff'], { cwd: dir, stdio: 'pipe' });
    return readFileSync(path.join(dir, 'f'), 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('unifiedDiff', () => {
  it('C-quotes a file name holding a line break as git does, so the header stays one line and git apply finds the file', () => {
    const name = 'm\n::error::x "q"/pom.xml';
    const diff = unifiedDiff(name, 'a\n', 'b\n');
    expect(diff.split('\n').slice(0, 2)).toEqual(['--- "a/m\\n::error::x \\"q\\"/pom.xml"', '+++ "b/m\\n::error::x \\"q\\"/pom.xml"']);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'relctl-diff-'));
    try {
      mkdirSync(path.join(dir, 'm\n::error::x "q"'));
      writeFileSync(path.join(dir, name), 'a\n');
      writeFileSync(path.join(dir, 'p.diff'), diff);
      execFileSync('git', ['apply', 'p.diff'], { cwd: dir, stdio: 'pipe' });
      expect(readFileSync(path.join(dir, name), 'utf8')).toBe('b\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('writes git-style headers and hunk ranges with three lines of context', () => {
    const before = 'a\nb\nc\nd\ne\nf\ng\nh\n';
    const after = 'a\nb\nc\nd\nE\nf\ng\nh\n';
    expect(unifiedDiff('pom.xml', before, after)).toBe('--- a/pom.xml\n+++ b/pom.xml\n@@ -2,7 +2,7 @@\n b\n c\n d\n-e\n+E\n f\n g\n h\n');
  });

  it('names a new file as /dev/null and an insertion into an empty range by the line before it', () => {
    expect(unifiedDiff('s.xml', undefined, 'x\ny\n')).toBe('--- /dev/null\n+++ b/s.xml\n@@ -0,0 +1,2 @@\n+x\n+y\n');
    expect(unifiedDiff('f', 'a\n', 'a\nb\n')).toBe('--- a/f\n+++ b/f\n@@ -1 +1,2 @@\n a\n+b\n');
  });

  it('keeps CRLF line endings and marks a last line without a newline', () => {
    expect(unifiedDiff('f', 'a\r\nb', 'a\r\nc')).toBe('--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\r\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n');
  });

  it('is empty for equal texts and splits far-apart changes into separate hunks', () => {
    expect(unifiedDiff('f', 'a\n', 'a\n')).toBe('');
    const before = Array.from({ length: 30 }, (_, i) => `l${i}\n`).join('');
    const after = before.replace('l2\n', 'L2\n').replace('l25\n', 'L25\n');
    expect(unifiedDiff('f', before, after).match(/^@@ .* @@$/gm)).toEqual(['@@ -1,6 +1,6 @@', '@@ -23,7 +23,7 @@']);
  });

  it('turns any text into any other (git apply of the diff gives back the new text)', () => {
    const text = fc.array(fc.constantFrom('a\n', 'b\n', 'c\n', 'x\r\n', 'y\n'), { minLength: 1, maxLength: 25 }).chain((l) => fc.boolean().map((cut) => (cut ? l.join('').replace(/\r?\n$/, '') : l.join(''))));
    fc.assert(
      fc.property(text, text, (before, after) => {
        const diff = unifiedDiff('f', before, after);
        expect(diff === '' ? before : gitApply(before, diff)).toBe(after);
      }),
      { numRuns: 60 },
    );
  });
});
