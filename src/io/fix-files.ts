/**
 * Files as `preflight --fix` reads and writes them: the bytes come back exactly as they were
 * outside the edited ranges. A UTF-8 byte order mark is kept, a POM declared ISO-8859-1 or
 * windows-1252 is written back in that encoding, line endings are whatever the text holds (the
 * edits use the file's own). Writes are atomic (a temporary file in the same folder, then a
 * rename, with the file's mode), and a file that changed since it was read is not written.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile, chmod } from 'node:fs/promises';
import path from 'node:path';
import { StepFailedError } from '../core/errors.js';
import type { FixSource } from '../core/fix/types.js';
import { declaredEncoding, decodeDescriptor, isSupportedEncoding, readDescriptor } from './descriptor.js';

/** One file as read: its text for the rules, and what writing it back needs. */
export interface ReadFixFile {
  source: FixSource;
  /** Absolute path of the file written (symbolic links resolved). */
  abs: string;
  /** The bytes as read; undefined for a file that did not exist. */
  bytes?: Buffer;
  encoding: 'utf8' | 'latin1';
  bom: boolean;
  mode?: number;
}

export type FixFileRead = { ok: true; file: ReadFixFile } | { ok: false; why: string };

const utf8Bom = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * Reads `abs` for fixing (`file` is how it is named in edits). A missing file reads as empty.
 * Synchronous: the fix rules are pure and ask for files as they need them (a handful).
 */
export function readFixFile(file: string, abs: string): FixFileRead {
  const read = readDescriptor(abs);
  if (!read.ok && read.problem === 'missing') return { ok: true, file: { source: { file, text: '' }, abs, encoding: 'utf8', bom: false } };
  if (!read.ok) return { ok: false, why: `${abs} ${read.reason}` };
  // A linked file (a settings.xml kept in a dotfiles folder) is edited where it lives: the rename
  // then replaces the target, not the link.
  const real = realpathSync(abs);
  const bytes = readFileSync(real);
  const mode = statSync(real).mode & 0o7777;
  if (bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))) {
    return { ok: false, why: `${abs} is UTF-16; relctl edits only UTF-8 and ISO-8859-1 descriptors` };
  }
  const bom = bytes.subarray(0, 3).equals(utf8Bom);
  const body = bom ? bytes.subarray(3) : bytes;
  // A file declared in another encoding (Shift_JIS, EUC-KR) is named with it, not as broken UTF-8.
  const declared = declaredEncoding(body);
  if (declared !== undefined && !isSupportedEncoding(declared)) {
    return { ok: false, why: `${abs} is declared ${declared} (its XML declaration); relctl edits only UTF-8, ISO-8859-1 and windows-1252 descriptors` };
  }
  // The same decision preflight made when it read the file (the XML declaration's encoding).
  const encoding = decodeDescriptor(body) === body.toString('utf8') ? 'utf8' : 'latin1';
  const text = body.toString(encoding);
  // Only a file that encodes back to the same bytes can be edited without touching the rest.
  if (!Buffer.from(text, encoding).equals(body)) return { ok: false, why: `${abs} is not valid ${encoding === 'utf8' ? 'UTF-8' : 'ISO-8859-1'}` };
  return { ok: true, file: { source: { file, text }, abs: real, bytes, encoding, bom, mode } };
}

/** The bytes of `text` as the file was written (BOM and encoding kept). */
export function encodeLike(read: ReadFixFile, text: string): Buffer {
  const body = Buffer.from(text, read.encoding);
  if (read.encoding === 'latin1' && body.toString('latin1') !== text) {
    throw new StepFailedError(`A fix would write characters ${read.abs} cannot hold in ISO-8859-1; no file was written.`, {
      kind: 'fix-encoding',
      fix: `Convert ${read.abs} to UTF-8 (its bytes and its encoding declaration), then run relctl preflight --fix again; or make the change by hand (relctl preflight --fix --dry-run shows it).`,
    });
  }
  return read.bom ? Buffer.concat([utf8Bom, body]) : body;
}

/** Throws (naming the file) when it changed since it was read, or appeared when it did not exist. */
export async function assertUnchanged(read: ReadFixFile): Promise<void> {
  const now = await readFile(read.abs).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  const unchanged = read.bytes === undefined ? now === undefined : now !== undefined && now.equals(read.bytes);
  if (!unchanged) {
    throw new StepFailedError(`${read.abs} changed since relctl read it; no file was written.`, {
      kind: 'fix-file-changed',
      fix: 'Run relctl preflight --fix again: it reads the files as they are now.',
    });
  }
}

/**
 * Writes `text` over the file read earlier, atomically, unless it changed since it was read
 * (assertUnchanged). A new file gets `newMode`.
 */
export async function writeFixFile(read: ReadFixFile, text: string, newMode = 0o644): Promise<void> {
  await assertUnchanged(read);
  const bytes = encodeLike(read, text);
  const dir = path.dirname(read.abs);
  if (read.bytes === undefined) await mkdir(dir, { recursive: true, mode: 0o700 });
  const temp = path.join(dir, `.${path.basename(read.abs)}.relctl-${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
  const mode = read.mode ?? newMode;
  try {
    await writeFile(temp, bytes, { mode, flag: 'wx' });
    await chmod(temp, mode); // writeFile's mode is filtered by the umask; the file's own mode is kept exactly
    await rename(temp, read.abs);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
