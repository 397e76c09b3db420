import { UsageError } from '../core/errors.js';
import { releaseTags } from '../core/notes/range.js';
import { parseVersion } from '../core/version.js';
import { listTags } from './git.js';
import { readJournal } from './journal.js';
import { readIdentity, type ProjectIdentity } from './project.js';

export interface ReleaseTarget {
  identity: ProjectIdentity;
  version: string;
  /** Where the version came from, for --verbose. */
  source: 'flag' | 'journal' | 'tag';
}

/**
 * The version a post-release command works on (DESIGN §11): `--release-version`, else the
 * journal's last release, else the newest release tag.
 */
export async function resolveReleaseTarget(cwd: string, env: NodeJS.ProcessEnv, flag: unknown): Promise<ReleaseTarget> {
  const identity = await readIdentity(cwd);
  if (typeof flag === 'string') {
    const v = parseVersion(flag);
    if (v === undefined || v.snapshot) {
      throw new UsageError(`--release-version ${flag}: not a release version X.Y.Z.`, { fix: 'Pass the released version, e.g. --release-version 5.1.0.' });
    }
    return { identity, version: flag, source: 'flag' };
  }
  const journal = await readJournal(cwd);
  if (journal.release !== undefined) return { identity, version: journal.release.version, source: 'journal' };
  const newest = releaseTags(await listTags(cwd, { env }), identity.artifactId)[0];
  if (newest !== undefined) return { identity, version: newest.version, source: 'tag' };
  throw new UsageError('No release version is known: the journal records no release and no release tag exists.', {
    kind: 'no-release-version',
    fix: 'Pass --release-version X.Y.Z.',
  });
}
