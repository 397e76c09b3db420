import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, readlinkSync, realpathSync, statSync, type Stats } from 'node:fs';
import { AsyncLocalStorage } from 'node:async_hooks';
import path from 'node:path';
import { inFolder } from '../core/abs-path.js';
import { UsageError } from '../core/errors.js';

/**
 * Reading build descriptors (POMs, settings.xml, Gradle scripts and properties, version
 * catalogs, relctl.config.json) safely. A descriptor must be a regular file no larger than
 * `descriptorSizeCap`: a FIFO named pom.xml would block a plain read forever, and pom.xml linked
 * to /dev/zero would fill memory. The path is stat()ed before it is opened, opened with
 * O_NONBLOCK (opening a FIFO then returns at once), and the open file is checked again with
 * fstat(), so a file swapped in between cannot slip through.
 *
 * Synchronous on purpose: descriptors are small, a reactor has thousands of them, and each
 * asynchronous call costs a thread-pool round trip that dominated the 1000-module benchmark.
 */

/** Real descriptors are kilobytes; a 20 MB generated POM still fits. */
export const descriptorSizeCap = 32 * 1024 * 1024;

export type DescriptorProblem = 'missing' | 'directory' | 'special' | 'too-large' | 'unreadable';

export type DescriptorRead =
  /** `realPath` only when asked for (readDescriptor's `withRealPath`). */
  | { ok: true; text: string; realPath?: string }
  /**
   * `reason` completes "<path> ...": "is a FIFO (named pipe), not a regular file"; `detail` is
   * the short fact behind it: the kind of file, the errno code, the size.
   */
  | { ok: false; problem: DescriptorProblem; reason: string; detail: string };

// O_NONBLOCK does not exist on Windows, where a FIFO cannot be named pom.xml either.
const openFlags = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(bytes % (1024 * 1024) === 0 ? 0 : 1)} MiB`;

function refuse(info: Stats, cap: number): DescriptorRead | undefined {
  if (info.isFile()) {
    if (info.size <= cap) return undefined;
    return { ok: false, problem: 'too-large', reason: `is larger than ${mib(cap)} (${mib(info.size)}), too large for a build descriptor`, detail: mib(info.size) };
  }
  if (info.isDirectory()) return { ok: false, problem: 'directory', reason: 'is a directory, not a file', detail: 'a directory' };
  const kind = info.isFIFO()
    ? 'a FIFO (named pipe)'
    : info.isCharacterDevice()
      ? 'a character device'
      : info.isBlockDevice()
        ? 'a block device'
        : info.isSocket()
          ? 'a socket'
          : 'not a regular file';
  return { ok: false, problem: 'special', reason: `is ${kind}, not a regular file`, detail: kind };
}

const missing: DescriptorRead = { ok: false, problem: 'missing', reason: 'does not exist', detail: 'ENOENT' };

function failure(error: unknown): DescriptorRead {
  const code = (error as NodeJS.ErrnoException).code ?? 'error';
  if (code === 'ENOENT' || code === 'ENOTDIR') return missing;
  if (code === 'EISDIR') return { ok: false, problem: 'directory', reason: 'is a directory, not a file', detail: 'a directory' };
  return { ok: false, problem: 'unreadable', reason: `cannot be read (${code})`, detail: code };
}

/**
 * Texts that stand in for files while `fn` runs (absolute path → text): `preflight --fix
 * --dry-run` audits the project as its edits would leave it without writing a byte. Scoped to
 * the async call (AsyncLocalStorage), so nothing else ever reads them.
 */
const plannedTexts = new AsyncLocalStorage<ReadonlyMap<string, string>>();

export function withPlannedTexts<T>(texts: ReadonlyMap<string, string>, fn: () => Promise<T>): Promise<T> {
  return plannedTexts.run(new Map([...texts].map(([file, text]) => [path.resolve(file), text])), fn);
}

/**
 * Reads a descriptor as UTF-8, or says why it cannot be one. Never throws, never blocks.
 * `withRealPath` adds the file's real path (symbolic links resolved), taken from the open
 * descriptor where the system offers it: one call instead of one per path component, which a
 * 1000-module reactor pays for every module. A caller that knows the real path of the file's
 * folder passes it as `realDir`: the file is then lstat()ed instead of stat()ed, and unless it is
 * itself a link its real path is that folder's plus its name, with no further call.
 */
export function readDescriptor(file: string, cap = descriptorSizeCap, withRealPath = false, realDir?: string): DescriptorRead {
  const planned = plannedTexts.getStore()?.get(path.resolve(file));
  if (planned !== undefined) return withRealPath ? { ok: true, text: planned, realPath: path.resolve(file) } : { ok: true, text: planned };
  let fd: number;
  let realPath: string | undefined;
  let seen: Stats;
  try {
    let info = realDir === undefined ? statSync(file, { throwIfNoEntry: false }) : lstatSync(file, { throwIfNoEntry: false });
    if (info === undefined) return missing;
    if (realDir !== undefined) {
      if (info.isSymbolicLink()) info = statSync(file, { throwIfNoEntry: false });
      else realPath = inFolder(realDir, path.basename(file));
      if (info === undefined) return missing;
    }
    seen = info;
    const refused = refuse(info, cap);
    if (refused !== undefined) return refused;
    fd = openSync(file, openFlags);
  } catch (error) {
    return failure(error);
  }
  try {
    const info = fstatSync(fd);
    const refused = refuse(info, cap);
    if (refused !== undefined) return refused;
    // Another file than the one lstat()ed (swapped for a link, or its folder for one, since): its
    // real path is asked of the open descriptor after all.
    if (realPath !== undefined && (info.ino !== seen.ino || info.dev !== seen.dev)) realPath = undefined;
    const bytes = readOpen(fd, info.size, cap);
    if (bytes === undefined) return { ok: false, problem: 'too-large', reason: `is larger than ${mib(cap)}, too large for a build descriptor`, detail: `over ${mib(cap)}` };
    const text = decodeDescriptor(bytes);
    return withRealPath ? { ok: true, text, realPath: realPath ?? realPathOf(fd, file) } : { ok: true, text };
  } catch (error) {
    return failure(error);
  } finally {
    closeSync(fd);
  }
}

/**
 * The whole content of an open file whose fstat() gave `size`: one read() when the file is as
 * large as it said (readFileSync would fstat() it again first), more when it grew since or
 * reports no size (procfs); undefined past `cap` bytes.
 */
function readOpen(fd: number, size: number, cap: number): Buffer | undefined {
  // One byte more than the size: a read that fills it says the file grew.
  let buffer = Buffer.allocUnsafe(Math.min(size, cap) + 1);
  let length = 0;
  for (;;) {
    const wanted = buffer.length - length;
    const n = readSync(fd, buffer, length, wanted, null);
    length += n;
    if (length > cap) return undefined;
    // A regular file reads short only at its end; one that gave no size (procfs) is read to a 0.
    if (n === 0 || (n < wanted && size > 0)) return buffer.subarray(0, length);
    if (length === buffer.length) {
      const larger = Buffer.allocUnsafe(Math.min(Math.max(buffer.length * 2, 8192), cap + 1));
      buffer.copy(larger, 0, 0, length);
      buffer = larger;
    }
  }
}

/**
 * The encoding an XML declaration names (`Shift_JIS`), looked at in the first bytes only;
 * undefined without a declaration or without an encoding in it.
 */
export function declaredEncoding(bytes: Buffer): string | undefined {
  if (bytes[0] !== 0x3c || bytes[1] !== 0x3f) return undefined;
  const end = bytes.indexOf(0x3e);
  const declaration = bytes.toString('latin1', 0, Math.min(end === -1 ? 200 : end + 1, 200));
  return /^<\?xml[^>]*?\sencoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(declaration)?.[1];
}

/** Whether relctl reads (and --fix writes back) text in this declared encoding. */
export function isSupportedEncoding(encoding: string): boolean {
  return /^utf-?8$/i.test(encoding) || singleByte.test(encoding);
}

// Latin-1 and Windows-1252 differ only in 0x80-0x9F, which no real POM uses: one decoder for both.
const singleByte = /^(iso-8859-1|iso8859-1|latin-?1|l1|cp819|us-ascii|ascii|windows-1252|cp1252)$/i;

/**
 * Text of a descriptor as Maven reads it: a UTF-16 byte order mark, else the XML declaration's
 * `encoding` (older POMs say ISO-8859-1 and mean it: a developer's name in Latin-1), else UTF-8.
 */
export function decodeDescriptor(bytes: Buffer): string {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return bytes.toString('utf16le', 2);
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) {
    // swap16 needs an even length: a stray last byte is no character anyway.
    const body = Buffer.from(bytes.subarray(2, bytes.length - (bytes.length % 2)));
    return body.swap16().toString('utf16le');
  }
  // `<?xml` (0x3C 0x3F): only then can a declaration name another encoding. Most say UTF-8 or
  // nothing: looked at in the bytes, without decoding the declaration (a reactor has thousands).
  if (bytes[0] === 0x3c && bytes[1] === 0x3f) {
    const end = bytes.indexOf(0x3e);
    const at = end === -1 ? -1 : bytes.subarray(0, end).indexOf('encoding');
    const first = at === -1 ? -1 : bytes.subarray(at, end).findIndex((b) => b === 0x22 || b === 0x27);
    const letter = first === -1 ? -1 : bytes[at + first + 1]!;
    if (letter !== -1 && letter !== 0x55 && letter !== 0x75 /* U, u: UTF-8, UTF-16 */) {
      const declaration = bytes.toString('latin1', 0, Math.min(end + 1, 200));
      const encoding = /^<\?xml[^>]*?\sencoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(declaration)?.[1];
      if (encoding !== undefined && singleByte.test(encoding)) return bytes.toString('latin1');
    }
  }
  return bytes.toString('utf8');
}

// Linux names every open file under /proc/self/fd; elsewhere (or without /proc) realpath(3).
const openFiles = process.platform === 'linux' ? '/proc/self/fd/' : undefined;

function realPathOf(fd: number, file: string): string {
  if (openFiles !== undefined) {
    try {
      const named = readlinkSync(`${openFiles}${fd}`);
      // " (deleted)": removed since it was opened; anything not absolute: not a plain file path.
      if (named.startsWith('/') && !named.endsWith(' (deleted)')) return named;
    } catch {
      // no /proc: fall through
    }
  }
  try {
    return realpathSync.native(file);
  } catch {
    return file;
  }
}

/**
 * For descriptors whose failure is a usage error (exit 2): the text, undefined when the file
 * does not exist, and otherwise an error naming the path and the reason.
 */
export function readDescriptorOrFail(file: string, display: string, fix: string): string | undefined {
  const r = readDescriptor(file);
  if (r.ok) return r.text;
  if (r.problem === 'missing') return undefined;
  throw new UsageError(`${display} ${r.reason}.`, { kind: 'unreadable-descriptor', fix, data: { path: file } });
}

/** The text, or undefined when the descriptor is missing or unusable (for optional reads). */
export function descriptorText(file: string, cap = descriptorSizeCap): string | undefined {
  const r = readDescriptor(file, cap);
  return r.ok ? r.text : undefined;
}
