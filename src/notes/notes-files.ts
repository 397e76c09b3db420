import { randomBytes } from 'node:crypto';
import { readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from '../core/errors.js';
import { planChangelog, type ChangelogPlan } from '../core/notes/changelog.js';
import type { CommandContext } from '../io/command-context.js';
import { clockNow } from '../io/clock.js';

/**
 * The files `relctl notes` writes: `--output FILE` (the notes) and `--changelog FILE` (the notes
 * inserted on top of the history). Both are written whole or not at all (temp file beside it, then
 * a rename, the file's mode kept), and a path that cannot be a file is exit 2 before anything.
 */
async function usableFile(ctx: CommandContext, flag: string, name: string): Promise<{ file: string; mode?: number; exists: boolean }> {
  const file = path.resolve(ctx.cwd, name);
  const fix = `Name a file (not a folder) in a folder that exists and is writable, e.g. ${flag} ${flag === '--changelog' ? 'CHANGELOG.md' : 'notes.md'}.`;
  const info = await stat(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw new UsageError(`${flag} ${name}: cannot be used (${error.code ?? error.message}).`, { kind: 'bad-output', fix });
  });
  if (info?.isDirectory() === true) throw new UsageError(`${flag} ${name} is a folder, not a file.`, { kind: 'bad-output', fix });
  if (info !== undefined && !info.isFile()) throw new UsageError(`${flag} ${name} is not a regular file.`, { kind: 'bad-output', fix });
  const folder = await stat(path.dirname(file)).catch(() => undefined);
  if (folder?.isDirectory() !== true) throw new UsageError(`${flag} ${name}: the folder ${path.dirname(file)} does not exist.`, { kind: 'bad-output', fix });
  return { file, exists: info !== undefined, ...(info === undefined ? {} : { mode: info.mode & 0o777 }) };
}

async function writeWhole(flag: string, name: string, file: string, text: string | Buffer, mode: number | undefined): Promise<void> {
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temp, text, mode === undefined ? {} : { mode });
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new UsageError(`${flag} ${name}: cannot write (${code}).`, { kind: 'bad-output', fix: 'Name a file in a folder that exists and is writable.' });
  }
}

/** Checks both paths before the notes are built, so a typo costs no network round trip. */
export async function checkNotesFiles(ctx: CommandContext, output: string | undefined, changelog: string | undefined): Promise<void> {
  if (output !== undefined) await usableFile(ctx, '--output', output);
  if (changelog !== undefined) await usableFile(ctx, '--changelog', changelog);
}

export async function writeNotesOutput(ctx: CommandContext, name: string, markdown: string): Promise<string> {
  const target = await usableFile(ctx, '--output', name);
  await writeWhole('--output', name, target.file, markdown, target.mode);
  return target.file;
}

export interface ChangelogResult {
  file: string;
  plan: ChangelogPlan;
  written: boolean;
}

/** The release's section on top of FILE (see core/notes/changelog.ts); a dry run only plans. */
export async function updateChangelog(ctx: CommandContext, name: string, version: string | undefined, markdown: string, dryRun: boolean): Promise<ChangelogResult> {
  if (version === undefined) {
    throw new UsageError('--changelog needs the release version for its section heading, and none is known.', {
      kind: 'no-release-version',
      fix: 'Pass --release-version X.Y.Z (or run after the release tag exists).',
    });
  }
  const target = await usableFile(ctx, '--changelog', name);
  // Planned on the bytes (latin1: one character per byte), so the rest of the file is kept byte
  // for byte whatever its encoding; the notes go in as UTF-8.
  const existing = target.exists ? (await readFile(target.file)).toString('latin1') : undefined;
  const date = clockNow(ctx.env).toISOString().slice(0, 10);
  const planned = planChangelog(existing, version, date, Buffer.from(markdown, 'utf8').toString('latin1'));
  const plan = planned.action === 'present' ? planned : { ...planned, section: Buffer.from(planned.section, 'latin1').toString('utf8') };
  if (planned.action === 'present' || dryRun) return { file: target.file, plan, written: false };
  await writeWhole('--changelog', name, target.file, Buffer.from(planned.text, 'latin1'), target.mode);
  return { file: target.file, plan, written: true };
}
