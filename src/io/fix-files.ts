/**
 * Files as `preflight --fix` reads and writes them: the bytes come back exactly as they were
 * outside the edited ranges. A UTF-8 byte order mark is kept, a POM declared ISO-8859-1 or
 * windows-1252 is written back in that encoding, line endings are whatever the text holds (the
 * edits use the file's own). Writes are atomic (a temporary file in the same folder, then a
 * rename, with the file's mode, owner and group), and a file that changed since it was read is not
 * written: its content is compared again right before the rename, and the replaced file is kept
 * (a hard link) until it is known that nothing was written to it meanwhile; if something was, it
 * is put back whole.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { chmod, chown, link, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
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
  /** Owner and group of an existing file: the replacement gets the same. */
  uid?: number;
  gid?: number;
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
  const st = statSync(real);
  const mode = st.mode & 0o7777;
  const owner = ownerProblem(st.uid, st.gid);
  if (owner !== undefined) return { ok: false, why: `${abs}${real === abs ? '' : ` (a link to ${real})`} ${owner}; relctl would replace it with a file of its own` };
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
  // Lines are counted at LF (findings, the rules' positions): with CR-only line ends every element
  // is on "line 1", and a fix would land in some places but not others. Declined whole instead.
  if (/\r(?!\n)/.test(text)) return { ok: false, why: `${abs} ends lines with a lone CR (classic Mac OS); relctl edits files whose lines end with LF or CRLF. Convert it (e.g. \`tr '\\r' '\\n'\`), then run relctl preflight --fix again` };
  return { ok: true, file: { source: { file, text }, abs: real, bytes, encoding, bom, mode, uid: st.uid, gid: st.gid } };
}

/**
 * Why a file of this owner and group cannot be replaced keeping both, or undefined when it can:
 * the replacement is a new file (the rename), created with relctl's user and group, and only
 * root may give it another user; a user may give it any group of theirs.
 */
function ownerProblem(uid: number, gid: number): string | undefined {
  if (process.getuid === undefined || process.getgid === undefined) return undefined; // Windows: no owners to keep
  const me = process.getuid();
  if (me === 0) return undefined;
  if (uid !== me) return `is owned by another user (uid ${uid})`;
  if (gid !== process.getgid() && !(process.getgroups?.() ?? []).includes(gid)) return `belongs to a group relctl's user is not in (gid ${gid})`;
  return undefined;
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
  if (!(await unchanged(read, read.abs))) throw changedError(read);
}

async function unchanged(read: ReadFixFile, file: string): Promise<boolean> {
  const now = await readFile(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  return read.bytes === undefined ? now === undefined : now !== undefined && now.equals(read.bytes);
}

function changedError(read: ReadFixFile, putBack = false): StepFailedError {
  const what = putBack ? 'changed while relctl wrote it; it was put back as it is now, with no fix' : 'changed since relctl read it; no file was written';
  return new StepFailedError(`${read.abs} ${what}.`, {
    kind: 'fix-file-changed',
    fix: 'Run relctl preflight --fix again once nothing else writes the file: it reads the files as they are now.',
  });
}

/**
 * Writes `text` over the file read earlier, atomically, unless it changed since it was read
 * (compared before and again right before the rename). A new file gets `newMode`.
 */
export async function writeFixFile(read: ReadFixFile, text: string, newMode = 0o644): Promise<void> {
  await assertUnchanged(read);
  const bytes = encodeLike(read, text);
  const dir = path.dirname(read.abs);
  if (read.bytes === undefined) await mkdir(dir, { recursive: true, mode: 0o700 });
  const name = `.${path.basename(read.abs)}.relctl-${process.pid}-${randomBytes(4).toString('hex')}`;
  const temp = path.join(dir, `${name}.tmp`);
  const kept = path.join(dir, `${name}.old`);
  const mode = read.mode ?? newMode;
  let keptOld = false;
  try {
    await writeFile(temp, bytes, { mode, flag: 'wx' });
    if (read.uid !== undefined && read.gid !== undefined) {
      const made = await stat(temp);
      if (made.uid !== read.uid || made.gid !== read.gid) await chown(temp, read.uid, read.gid);
    }
    await chmod(temp, mode); // writeFile's mode is filtered by the umask (and chown may clear set-id bits): the file's own mode exactly
    // The file as it is now, held by a second name: whatever is appended to it up to the rename
    // lands in this inode, which the check after the rename reads.
    if (read.bytes !== undefined) keptOld = await link(read.abs, kept).then(
      () => true,
      () => false, // a file system without hard links: the check right before the rename is what is left
    );
    if (!(await unchanged(read, keptOld ? kept : read.abs))) throw changedError(read);
    if (read.bytes === undefined) {
      // A new file: a hard link is created only where no file is, so one made meanwhile is never replaced.
      await link(temp, read.abs).catch(async (error: NodeJS.ErrnoException) => {
        if (error.code === 'EEXIST') throw changedError(read);
        await rename(temp, read.abs); // no hard links here: the check above is what is left
      });
    } else await rename(temp, read.abs);
    if (keptOld && !(await unchanged(read, kept))) {
      // Written to between the check and the rename: the old inode, with what was written, goes back.
      await rename(kept, read.abs);
      keptOld = false;
      throw changedError(read, true);
    }
  } finally {
    await rm(temp, { force: true });
    if (keptOld) await rm(kept, { force: true });
  }
}
