/**
 * What `relctl preflight --fix` would change in a fleet repository for the findings that are its
 * own (not `fixIn` a parent): the same planner and rules, limited to the repository's files (the
 * machine's settings file is the machine's business, listed under `environment`).
 */
import path from 'node:path';
import type { ProjectFacts } from '../../checks/facts.js';
import { defaultPasswordVariable, defaultUsernameVariable } from '../../checks/fixes/types.js';
import type { FixEdit } from '../../core/fix/types.js';
import type { CommandContext } from '../../io/command-context.js';
import { encodeLike } from '../../io/fix-files.js';
import { planProjectFixes } from '../../release/fix/preflight-fix.js';
import type { FleetFinding } from '../report-types.js';

/** One file of the repository as the fix leaves it. */
export interface FileChange {
  /** Repository-relative, forward slashes. */
  file: string;
  before: string;
  after: string;
  /** The new content, encoded as the file was (encoding, BOM). */
  bytes: Buffer;
  /** Encodes another text of the file the same way (to combine changes of one file). */
  encode: (text: string) => Buffer;
  /** Its mode in the tree the commit is made on, once placeChanges has read it (a new file has none). */
  mode?: string;
  edits: FixEdit[];
}

/** The variables a new `<server>` names (never values): the ones `preflight --fix` writes by default. */
const credentialVariables = { usernameVariable: defaultUsernameVariable, passwordVariable: defaultPasswordVariable };

/** The changes, and a `fix-unreadable` warning for each file the fix would edit but does not (a link out of the repository, an unreadable encoding), as preflight --fix declines it. */
export function ownChanges(ctx: Pick<CommandContext, 'env'>, facts: ProjectFacts, findings: readonly FleetFinding[]): { changes: FileChange[]; declined: FleetFinding[] } {
  const own = findings.filter((f) => f.fixIn === undefined).map(({ fixIn: _fixIn, ...f }) => f);
  if (own.length === 0) return { changes: [], declined: [] };
  const { plan, reader } = planProjectFixes(ctx, facts, own, { fixMetadata: false, ...credentialVariables });
  const changes: FileChange[] = [];
  for (const f of plan.files) {
    const read = reader.files.get(f.file);
    if (path.isAbsolute(f.file) || read === undefined) continue;
    const encode = (text: string): Buffer => encodeLike(read, text);
    let bytes: Buffer;
    try {
      bytes = encode(f.after);
    } catch {
      // A file whose encoding cannot hold the edit (ISO-8859-1): preflight --fix declines it too; the audit goes on.
      continue;
    }
    changes.push({ file: f.file, before: f.before, after: f.after, bytes, encode, edits: f.edits });
  }
  return { changes, declined: [...reader.unreadable].map(([file, why]) => declinedFix(file, why)) };
}

/** A file a fix would edit but does not: preflight --fix's `fix-unreadable`, as a warning of the repository. */
export function declinedFix(file: string, why: string): FleetFinding {
  return { code: 'fix-unreadable', severity: 'warning', message: why, file, fix: 'Make this fix by hand where the file really is.' };
}
