/**
 * Parents first (DESIGN §13, Fix): a child whose errors are fixed in a fleet parent gets nothing
 * until that parent's fixed version is released, then a change that moves its `<parent><version>`
 * there. "Released" is the parent repository's newest release tag *and* that version on the public
 * repository; "fixed" is proven, not assumed: the child is audited again as the change would leave
 * it, and every error it waited on must be gone.
 */
import path from 'node:path';
import { auditProject } from '../../checks/audit.js';
import { lineOf } from '../../core/fix/apply.js';
import { parseXml } from '../../core/pom/xml.js';
import { withPlannedTexts } from '../../io/descriptor.js';
import { encodeLike, readFixFile } from '../../io/fix-files.js';
import { publishedVerdict } from '../../io/published.js';
import type { RepoAudit } from '../audit-repo.js';
import { fleetGroups } from '../audit-repo.js';
import { newestReleaseTag, tagsNewestFirst } from '../last-release.js';
import type { FleetContext } from '../run-audit.js';
import type { FileChange } from './own-edits.js';

export interface ParentBump {
  change: FileChange;
  parentRepo: string;
  coordinates: string;
  from: string;
  to: string;
  tag: string;
}

export type BumpDecision = { bump: ParentBump } | { wait: string } | undefined;

/** Whether (and where) the child's `<parent><version>` moves; undefined when it waits on no fleet parent. */
export async function parentBump(audited: RepoAudit, fleet: FleetContext, offline: boolean): Promise<BumpDecision> {
  const { report, facts, ctx } = audited;
  const waitsOn = report.fixIn[0];
  const top = facts?.maven?.modules.find((m) => m.topLevel);
  const ref = top?.raw.parent;
  if (waitsOn === undefined || top === undefined || ref?.version === undefined) return undefined;
  const built = fleet.index.builder(ref.groupId, ref.artifactId);
  const clone = built === undefined ? undefined : fleet.clones.get(built.repo);
  if (built === undefined || clone === undefined || built.repo !== waitsOn) return { wait: `it waits on ${waitsOn}, which is not its own <parent>` };
  const newest = newestReleaseTag(await tagsNewestFirst(clone.dir, ctx.env), built.artifactId);
  if (newest === undefined) return { wait: `${built.repo} has no release tag yet: release its fix first` };
  if (newest.version === ref.version) return { wait: `${built.repo}'s newest release, ${newest.version}, is the version it already uses: release the fix of ${built.repo} first` };
  if (isOlder(newest.version, ref.version)) return { wait: `${built.repo}'s newest release tag, ${newest.tag}, is older than ${ref.version}, the version it already uses` };
  if (offline) return { wait: `offline, it is not known whether ${built.groupId}:${built.artifactId}:${newest.version} (tag ${newest.tag}) is on the public repository` };
  const answer = await publishedVerdict(ctx, { groupId: built.groupId, artifactId: built.artifactId, version: newest.version });
  if (answer.published === undefined) return { wait: `${built.repo} tagged ${newest.tag}, but the public repository could not say whether ${newest.version} is there (${answer.reason})` };
  if (!answer.published) return { wait: `${built.repo} tagged ${newest.tag}, but ${newest.version} is not on the public repository yet` };
  const change = bumpEdit(ctx.cwd, top.file, ref.version, newest.version);
  if (change === undefined) return { wait: `the <parent><version> of ${top.file} could not be located for an edit` };
  // The child as the bump would leave it: every error it waited on must be gone.
  const again = await withPlannedTexts(new Map([[path.join(ctx.cwd, top.file), change.after]]), () => auditProject(ctx, { offline, groups: fleetGroups, preferredParents: fleet.parents }));
  const waited = new Set(report.findings.filter((f) => f.severity === 'error' && f.fixIn !== undefined).map((f) => f.code));
  const left = again.report.findings.filter((f) => f.severity === 'error' && waited.has(f.code));
  if (left.length > 0) return { wait: `${built.repo}'s newest release ${newest.version} still passes on ${[...new Set(left.map((f) => f.code))].join(', ')}` };
  return { bump: { change, parentRepo: built.repo, coordinates: `${built.groupId}:${built.artifactId}`, from: ref.version, to: newest.version, tag: newest.tag } };
}

/**
 * Whether version `a` is below `b`, comparing their numbers in order (`258` < `259`, `5.0.9` <
 * `5.0.10`); a qualifier decides nothing. A later tag of an older line is never a move forward.
 */
export function isOlder(a: string, b: string): boolean {
  const numbers = (v: string): number[] => (v.match(/\d+/g) ?? []).map(Number);
  const [x, y] = [numbers(a), numbers(b)];
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d < 0;
  }
  return false;
}

/** The top POM with its `<parent><version>` replaced, positions from the XML scanner. */
function bumpEdit(root: string, file: string, from: string, to: string): FileChange | undefined {
  const read = readFixFile(file, path.join(root, file));
  if (!read.ok || read.file.bytes === undefined) return undefined;
  const text = read.file.source.text;
  const parsed = parseXml(text);
  if (!parsed.ok) return undefined;
  const version = parsed.root.children.find((c) => c.name === 'parent')?.children.find((c) => c.name === 'version');
  if (version === undefined || version.text !== from) return undefined;
  const after = text.slice(0, version.contentStart) + to + text.slice(version.contentEnd);
  const edit = { file, start: version.contentStart, end: version.contentEnd, replacement: to, code: 'parent-version', line: lineOf(text, version.contentStart), before: from, after: to };
  const encode = (t: string): Buffer => encodeLike(read.file, t);
  return { file, before: text, after, bytes: encode(after), encode, edits: [edit] };
}
