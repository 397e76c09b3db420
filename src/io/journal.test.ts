import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/helpers/temp.js';
import { UsageError } from '../core/errors.js';
import { journalPath, readJournal, updateJournal } from './journal.js';

describe('journal', () => {
  it('is empty when absent, and persists updates in a git-ignored folder', async () => {
    await using dir = await tempDir();
    expect(await readJournal(dir.path)).toEqual({ version: 1, steps: [], uploads: [] });
    await updateJournal(dir.path, (j) => {
      j.steps.push({ id: 'build', status: 'done', at: '2026-01-01T00:00:00Z', data: { tag: 'demo-1.0.0' } });
    });
    await updateJournal(dir.path, (j) => {
      j.deploymentId = 'abc';
    });
    const j = await readJournal(dir.path);
    expect(j.steps.map((s) => s.id)).toEqual(['build']);
    expect(j.deploymentId).toBe('abc');
    expect(await readFile(path.join(dir.path, '.relctl', '.gitignore'), 'utf8')).toBe('*\n');
  });

  it('keeps every concurrent update', async () => {
    await using dir = await tempDir();
    await Promise.all(
      ['a', 'b', 'c', 'd'].map((id) => updateJournal(dir.path, (j) => void j.steps.push({ id, status: 'done', at: 'x' }))),
    );
    expect((await readJournal(dir.path)).steps.map((s) => s.id).sort()).toEqual(['a', 'b', 'c', 'd']);
  });

  it('names the file and the fix when the journal is corrupt', async () => {
    await using dir = await tempDir();
    await mkdir(path.join(dir.path, '.relctl'));
    await writeFile(journalPath(dir.path), '{not json');
    const error = await readJournal(dir.path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toContain(journalPath(dir.path));
    expect((error as UsageError).fix).toMatch(/Delete/);
  });
});
