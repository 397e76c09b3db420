import { chmod, mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/helpers/temp.js';
import { UsageError } from '../core/errors.js';
import { ownedTempBases, shellSafe, shellSafeTempBase } from './temp-base.js';

describe('a temp folder for paths that go into MAVEN_OPTS (issue 37 item 5)', () => {
  it.each([
    ['/tmp/relctl-settings-AbC123', true],
    ["/tmp/o'neil $HOME\\x", false],
    ["/tmp/o'neil$HOME\\x\"", true],
    ['/tmp/sp ace', false],
    ['/tmp/tab\there', false],
    ['/tmp/new\nline', false],
    ['/tmp/star*', false],
    ['/tmp/what?', false],
    ['/tmp/[ab]', false],
  ])('%j is shell-safe: %s', (p, safe) => {
    expect(shellSafe(p)).toBe(safe);
  });

  it('a shell-safe TMPDIR is used as it is', async () => {
    await using t = await tempDir('temp-base-');
    expect(await shellSafeTempBase(t.path, [])).toEqual({ path: t.path });
  });

  it("a TMPDIR with a space: its real path when it links to a safe folder, else the first usable fallback; each time saying why", async () => {
    await using t = await tempDir('temp-base-');
    const real = path.join(t.path, 'real');
    await mkdir(real);
    const linked = path.join(t.path, 'my temp');
    await symlink(real, linked);
    const viaLink = await shellSafeTempBase(linked, []);
    expect(viaLink.path).toBe(real);
    expect(viaLink.why).toContain(`${linked} (TMPDIR)`);

    const spaced = path.join(t.path, 'sp ace');
    await mkdir(spaced);
    const open = path.join(t.path, 'world-writable');
    await mkdir(open);
    await chmod(open, 0o777);
    const fallback = await shellSafeTempBase(spaced, [path.join(t.path, 'missing'), open, real]);
    expect(fallback).toEqual({ path: real, why: expect.stringContaining(`relctl's private Maven home goes in ${real} instead`) });
  });

  it('none usable: exit 2 naming TMPDIR and the fix, before any Maven runs', async () => {
    await using t = await tempDir('temp-base-');
    const spaced = path.join(t.path, 'sp ace');
    await mkdir(spaced);
    const error = await shellSafeTempBase(spaced, [path.join(t.path, 'missing'), path.join(t.path, 'a b')]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect(error).toMatchObject({ exitCode: 2, kind: 'tmpdir-unsafe', data: { tmpdir: spaced } });
    expect((error as UsageError).message).toContain(`The temp folder ${spaced} (TMPDIR) has a character the mvn launcher splits MAVEN_OPTS at`);
    expect((error as UsageError).fix).toContain('Set TMPDIR to a folder whose path has no spaces');
  });

  it("the killed-run sweep looks in the OS temp folder and, when that is not shell-safe, in the one used instead", async () => {
    await using t = await tempDir('temp-base-');
    const spaced = path.join(t.path, 'sp ace');
    await mkdir(spaced);
    const saved = process.env.TMPDIR;
    try {
      process.env.TMPDIR = t.path;
      expect(await ownedTempBases()).toEqual([t.path]);
      process.env.TMPDIR = spaced;
      expect(await ownedTempBases()).toEqual([spaced, (await shellSafeTempBase(spaced)).path]);
      expect((await ownedTempBases())[1]).toBe('/tmp');
    } finally {
      process.env.TMPDIR = saved;
    }
  });
});
