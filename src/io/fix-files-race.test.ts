import { appendFileSync } from 'node:fs';
import { chmod, chown, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// Something else appends to the file at the worst moment: just before relctl's rename, after
// every check relctl could make before it. Before the fix this append was lost (2 runs in 25).
const appendAtRename = vi.hoisted(() => ({ file: undefined as string | undefined }));
const appearAtWrite = vi.hoisted(() => ({ file: undefined as string | undefined }));
vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  return {
    ...real,
    link: async (from: string, to: string) => {
      if (appearAtWrite.file === to) {
        appearAtWrite.file = undefined;
        await real.writeFile(to, '<settings>theirs</settings>\n');
      }
      return real.link(from, to);
    },
    rename: async (from: string, to: string) => {
      if (appearAtWrite.file === to) {
        appearAtWrite.file = undefined;
        await real.writeFile(to, '<settings>theirs</settings>\n');
      }
      if (appendAtRename.file === to) {
        appendAtRename.file = undefined;
        appendFileSync(to, '<!-- appended by another process -->\n');
      }
      return real.rename(from, to);
    },
  };
});

const { readFixFile, writeFixFile } = await import('./fix-files.js');

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'relctl-fix-race-'));
});
afterEach(async () => {
  appendAtRename.file = undefined;
  appearAtWrite.file = undefined;
  await rm(dir, { recursive: true, force: true });
});

function read(file: string) {
  const r = readFixFile(path.basename(file), file);
  if (!r.ok) throw new Error(r.why);
  return r.file;
}

describe('fix files written while something else writes them', () => {
  it('keeps an append that lands right before the rename, and says the fix was not written', async () => {
    const file = path.join(dir, 'pom.xml');
    await writeFile(file, '<project><url>old</url></project>\n');
    const r = read(file);
    appendAtRename.file = file;
    await expect(writeFixFile(r, '<project><url>new</url></project>\n')).rejects.toThrow(`${file} changed while relctl wrote it`);
    expect(await readFile(file, 'utf8')).toBe('<project><url>old</url></project>\n<!-- appended by another process -->\n');
    expect((await readFile(file, 'utf8')).includes('new')).toBe(false);
    // No temporary or kept copy is left beside it.
    const { readdir } = await import('node:fs/promises');
    expect(await readdir(dir)).toEqual(['pom.xml']);
  });

  it('does not replace a file that appeared while a new one was being written', async () => {
    const file = path.join(dir, 'settings.xml');
    const r = read(file);
    appearAtWrite.file = file; // made by someone else at the last moment
    await expect(writeFixFile(r, '<settings>ours</settings>\n', 0o600)).rejects.toThrow('changed since relctl read it');
    expect(await readFile(file, 'utf8')).toBe('<settings>theirs</settings>\n');
  });
});

describe('fix files behind a symbolic link', () => {
  it('replaces the target keeping its mode, owner and group; the link stays a link', async () => {
    const target = path.join(dir, 'dotfiles-settings.xml');
    const linkPath = path.join(dir, 'settings.xml');
    await writeFile(target, '<settings><id>ossrh</id></settings>\n');
    await chmod(target, 0o604);
    const root = process.getuid?.() === 0;
    if (root) await chown(target, 65534, 65534); // nobody: only root can keep another user's file
    await symlink(target, linkPath);
    const r = read(linkPath);
    await writeFixFile(r, '<settings><id>central</id></settings>\n', 0o600);
    const after = await stat(target);
    expect(after.mode & 0o7777).toBe(0o604);
    if (root) expect([after.uid, after.gid]).toEqual([65534, 65534]);
    expect(await readFile(linkPath, 'utf8')).toBe('<settings><id>central</id></settings>\n');
    const { lstat } = await import('node:fs/promises');
    expect((await lstat(linkPath)).isSymbolicLink()).toBe(true);
  });
});
