import { execFileSync } from 'node:child_process';
import { mkdir, open, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/helpers/temp.js';
import { decodeDescriptor, descriptorSizeCap, readDescriptor } from './descriptor.js';

/** Each read must come back at once: none of these may block or read without bound. */
function timed<T>(fn: () => T): { value: T; ms: number } {
  const start = performance.now();
  const value = fn();
  return { value, ms: performance.now() - start };
}

describe('readDescriptor', () => {
  it('reads a regular file and says "missing" for a path that does not exist', async () => {
    await using dir = await tempDir();
    await writeFile(path.join(dir.path, 'pom.xml'), '<project/>');
    expect(readDescriptor(path.join(dir.path, 'pom.xml'))).toEqual({ ok: true, text: '<project/>' });
    expect(readDescriptor(path.join(dir.path, 'nope.xml'))).toMatchObject({ ok: false, problem: 'missing' });
    expect(readDescriptor(path.join(dir.path, 'pom.xml', 'below'))).toMatchObject({ ok: false, problem: 'missing' });
  });

  it('refuses a FIFO without blocking, even with no writer', async () => {
    await using dir = await tempDir();
    const fifo = path.join(dir.path, 'pom.xml');
    execFileSync('mkfifo', [fifo]);
    const { value, ms } = timed(() => readDescriptor(fifo));
    expect(value).toMatchObject({ ok: false, problem: 'special', reason: 'is a FIFO (named pipe), not a regular file' });
    expect(ms).toBeLessThan(1000);
  });

  it('refuses pom.xml linked to /dev/zero without reading it', async () => {
    await using dir = await tempDir();
    const link = path.join(dir.path, 'pom.xml');
    await symlink('/dev/zero', link);
    const { value, ms } = timed(() => readDescriptor(link));
    expect(value).toMatchObject({ ok: false, problem: 'special', reason: 'is a character device, not a regular file' });
    expect(ms).toBeLessThan(1000);
  });

  it('refuses a file over the cap by its size (a sparse 1 GiB file is not read)', async () => {
    await using dir = await tempDir();
    const big = path.join(dir.path, 'pom.xml');
    const handle = await open(big, 'w');
    await handle.truncate(1024 ** 3);
    await handle.close();
    const { value, ms } = timed(() => readDescriptor(big));
    expect(value).toMatchObject({ ok: false, problem: 'too-large', reason: 'is larger than 32 MiB (1024 MiB), too large for a build descriptor' });
    expect(ms).toBeLessThan(1000);
    // A smaller cap applies to callers that pass one; a file at the cap is still read.
    await writeFile(big, 'x'.repeat(10));
    expect(readDescriptor(big, 9)).toMatchObject({ ok: false, problem: 'too-large' });
    expect(readDescriptor(big, 10)).toEqual({ ok: true, text: 'x'.repeat(10) });
    expect(descriptorSizeCap).toBe(32 * 1024 * 1024);
  });

  it('reads a file that gives no size (procfs) to its end, and one of many kilobytes whole', async () => {
    // /proc files are regular files of size 0: a read trusting the size would return nothing.
    const status = readDescriptor('/proc/self/status');
    expect(status.ok && status.text).toMatch(/^Name:\s+\S+[\s\S]*\nPid:\s+\d+/);
    await using dir = await tempDir();
    const text = `<project>${'<module>m</module>\n'.repeat(20_000)}</project>`;
    await writeFile(path.join(dir.path, 'pom.xml'), text);
    expect(readDescriptor(path.join(dir.path, 'pom.xml'))).toEqual({ ok: true, text });
  });

  it('with the real folder known, names the real path without asking for it, and follows a linked pom.xml to its real path', async () => {
    await using dir = await tempDir();
    await mkdir(path.join(dir.path, 'a'));
    await mkdir(path.join(dir.path, 'elsewhere'));
    await writeFile(path.join(dir.path, 'a', 'pom.xml'), '<project/>');
    expect(readDescriptor(path.join(dir.path, 'a', 'pom.xml'), descriptorSizeCap, true, '/the/real/a')).toEqual({ ok: true, text: '<project/>', realPath: '/the/real/a/pom.xml' });
    await writeFile(path.join(dir.path, 'elsewhere', 'real.xml'), '<project><x/></project>');
    await mkdir(path.join(dir.path, 'b'));
    await symlink(path.join(dir.path, 'elsewhere', 'real.xml'), path.join(dir.path, 'b', 'pom.xml'));
    const linked = readDescriptor(path.join(dir.path, 'b', 'pom.xml'), descriptorSizeCap, true, path.join(dir.path, 'b'));
    expect(linked).toEqual({ ok: true, text: '<project><x/></project>', realPath: path.join(dir.path, 'elsewhere', 'real.xml') });
    // A linked FIFO is refused as before, without blocking.
    execFileSync('mkfifo', [path.join(dir.path, 'elsewhere', 'fifo')]);
    await mkdir(path.join(dir.path, 'c'));
    await symlink(path.join(dir.path, 'elsewhere', 'fifo'), path.join(dir.path, 'c', 'pom.xml'));
    expect(readDescriptor(path.join(dir.path, 'c', 'pom.xml'), descriptorSizeCap, true, path.join(dir.path, 'c'))).toMatchObject({ ok: false, problem: 'special' });
  });

  it('refuses a directory', async () => {
    await using dir = await tempDir();
    await mkdir(path.join(dir.path, 'pom.xml'));
    expect(readDescriptor(path.join(dir.path, 'pom.xml'))).toMatchObject({ ok: false, problem: 'directory', reason: 'is a directory, not a file' });
  });
});

describe('decodeDescriptor', () => {
  const pom = '<project><name>Mikael Ståldal</name></project>';
  it('reads UTF-16 with a byte order mark, either order (Maven does; it is not binary)', () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(pom, 'utf16le')]);
    const be = Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(pom, 'utf16le').swap16()]);
    expect(decodeDescriptor(le)).toBe(pom);
    expect(decodeDescriptor(be)).toBe(pom);
  });

  it('honours an ISO-8859-1 declaration and reads everything else as UTF-8', () => {
    const declared = `<?xml version="1.0" encoding="ISO-8859-1"?>\n${pom}`;
    expect(decodeDescriptor(Buffer.from(declared, 'latin1'))).toBe(declared);
    const utf8 = `<?xml version='1.0' encoding='UTF-8'?>${pom}`;
    expect(decodeDescriptor(Buffer.from(utf8, 'utf8'))).toBe(utf8);
    expect(decodeDescriptor(Buffer.from(pom, 'utf8'))).toBe(pom);
    // windows-1252 is read like Latin-1; a declaration without an encoding means UTF-8.
    const cp = `<?xml version="1.0" encoding="windows-1252"?>${pom}`;
    expect(decodeDescriptor(Buffer.from(cp, 'latin1'))).toBe(cp);
    const bare = `<?xml version="1.0"?>${pom}`;
    expect(decodeDescriptor(Buffer.from(bare, 'utf8'))).toBe(bare);
  });

  it('reads a big-endian UTF-16 file with an odd byte at the end instead of failing on it', () => {
    expect(decodeDescriptor(Buffer.from([0xfe, 0xff, 0x00, 0x3c, 0x00, 0x61, 0x00]))).toBe('<a');
  });
});
