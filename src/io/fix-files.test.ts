import { chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readFixFile, writeFixFile, type ReadFixFile } from './fix-files.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'relctl-fix-files-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function read(file: string): ReadFixFile {
  const r = readFixFile(path.basename(file), file);
  if (!r.ok) throw new Error(r.why);
  return r.file;
}

describe('fix files', () => {
  it('does not write a file that changed since it was read, and says which', async () => {
    const file = path.join(dir, 'pom.xml');
    await writeFile(file, '<project/>\n');
    const r = read(file);
    await writeFile(file, '<project><!-- edited meanwhile --></project>\n');
    await expect(writeFixFile(r, '<project>fixed</project>\n')).rejects.toThrow(`${file} changed since relctl read it`);
    expect(await readFile(file, 'utf8')).toBe('<project><!-- edited meanwhile --></project>\n');
  });

  it('does not overwrite a file that appeared after it was read as missing', async () => {
    const file = path.join(dir, '.m2', 'settings.xml');
    const r = read(file);
    expect(r.bytes).toBeUndefined();
    await mkdir(path.dirname(file));
    await writeFile(file, '<settings/>');
    await expect(writeFixFile(r, '<settings>new</settings>')).rejects.toThrow('changed since relctl read it');
  });

  it('keeps the mode, the BOM and ISO-8859-1; creates a new file with the mode asked for', async () => {
    const file = path.join(dir, 'pom.xml');
    const latin = '<?xml version="1.0" encoding="ISO-8859-1"?>\r\n<project><name>Caf\u00e9</name><url>old</url></project>\r\n';
    await writeFile(file, Buffer.concat([Buffer.from('\ufeff', 'utf8'), Buffer.from(latin.replace('ISO-8859-1', 'UTF-8'), 'utf8')]));
    await chmod(file, 0o640);
    const r = read(file);
    expect(r.source.text.startsWith('<?xml')).toBe(true);
    await writeFixFile(r, r.source.text.replace('old', 'new'));
    expect((await stat(file)).mode & 0o777).toBe(0o640);
    expect([...(await readFile(file)).subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);

    const l1 = path.join(dir, 'lib.xml');
    await writeFile(l1, Buffer.from(latin, 'latin1'));
    const r1 = read(l1);
    expect(r1.encoding).toBe('latin1');
    await writeFixFile(r1, r1.source.text.replace('old', 'new'));
    expect(await readFile(l1)).toEqual(Buffer.from(latin.replace('old', 'new'), 'latin1'));

    const fresh = path.join(dir, 'home', '.m2', 'settings.xml');
    await writeFixFile(read(fresh), '<settings/>\n', 0o600);
    expect((await stat(fresh)).mode & 0o777).toBe(0o600);
  });

  it('refuses to edit a file that is not valid in its encoding (it could not be written back the same)', async () => {
    const file = path.join(dir, 'pom.xml');
    await writeFile(file, Buffer.from([0x3c, 0x70, 0x2f, 0x3e, 0xff, 0x0a]));
    const r = readFixFile('pom.xml', file);
    expect(r).toEqual({ ok: false, why: `${file} is not valid UTF-8` });
  });
});
