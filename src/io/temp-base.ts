import { constants } from 'node:fs';
import { access, realpath, stat } from 'node:fs/promises';
import os from 'node:os';
import { UsageError } from '../core/errors.js';

/**
 * Where a temp folder whose path goes into MAVEN_OPTS can live (issue 37 item 5). `mvn` and
 * `mvnw` run `exec "$JAVACMD" $MAVEN_OPTS …` unquoted: the shell splits the value at whitespace
 * and expands `*`, `?` and `[…]` as file patterns, and no quoting inside the variable survives. So
 * `-Duser.home=/tmp/sp ace/relctl-settings-x` reaches java as two words and the JVM stops at
 * "Could not find or load main class ace.relctl-settings-x" before Maven prints a line.
 */
export function shellSafe(p: string): boolean {
  return !/[\s*?[\]]/.test(p);
}

export interface TempBase {
  path: string;
  /** Set when the base is not the OS temp folder: the one line saying why. */
  why?: string;
}

/** The temp folders tried, in order, when the OS temp folder is not shell-safe. */
export const shellSafeFallbacks = ['/tmp', '/var/tmp'] as const;

/**
 * The OS temp folder (TMPDIR) when its path is shell-safe; else the first shell-safe of its real
 * path (a TMPDIR that is a link to a plain folder) and `fallbacks`, each a folder this user can
 * write in that others cannot tamper with (not world-writable, or sticky like /tmp). None: exit 2
 * naming TMPDIR, before any Maven runs, rather than a Maven that cannot start.
 */
export async function shellSafeTempBase(tmp = os.tmpdir(), fallbacks: readonly string[] = shellSafeFallbacks): Promise<TempBase> {
  if (shellSafe(tmp)) return { path: tmp };
  const candidates = [await realpath(tmp).catch(() => tmp), ...fallbacks];
  for (const candidate of candidates) {
    if (shellSafe(candidate) && (await usable(candidate))) {
      return { path: candidate, why: `the temp folder ${tmp} (TMPDIR) has a character mvn splits MAVEN_OPTS at (whitespace, * ? [ ]): relctl's private Maven home goes in ${candidate} instead` };
    }
  }
  throw new UsageError(
    `The temp folder ${tmp} (TMPDIR) has a character the mvn launcher splits MAVEN_OPTS at (whitespace, * ? [ ]), and relctl passes the private Maven home in it (-Duser.home); no other temp folder is usable (${[...new Set(candidates)].join(', ')}: none is a writable folder whose path has none of them).`,
    {
      kind: 'tmpdir-unsafe',
      fix: 'Set TMPDIR to a folder whose path has no spaces (mkdir -p /var/tmp/$USER && TMPDIR=/var/tmp/$USER relctl …), then run again.',
      data: { tmpdir: tmp },
    },
  );
}

async function usable(dir: string): Promise<boolean> {
  const st = await stat(dir).catch(() => undefined);
  if (st === undefined || !st.isDirectory()) return false;
  // World-writable without the sticky bit: anyone could rename the private home away and put theirs.
  if ((st.mode & 0o1002) === 0o002) return false;
  return access(dir, constants.W_OK | constants.X_OK).then(
    () => true,
    () => false,
  );
}

/**
 * The folders relctl's marked temp folders may be in: the OS temp folder and, when that is not
 * shell-safe, the one shellSafeTempBase uses instead (so the next run's sweep finds what a killed
 * run left there).
 */
export async function ownedTempBases(): Promise<string[]> {
  const tmp = os.tmpdir();
  const safe = await shellSafeTempBase(tmp).catch(() => undefined);
  return safe === undefined || safe.path === tmp ? [tmp] : [tmp, safe.path];
}
