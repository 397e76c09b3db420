/**
 * relctl's own record of what it saw reach PUBLISHED, for the monthly publishing limits
 * (DESIGN §5a). The limits count per organization, across every project of its namespaces, so the
 * record cannot live in one project's journal (git-ignored, per checkout: the second project of
 * the same organization would never see the first one's releases). It lives in the user's state
 * folder, `$XDG_STATE_HOME/relctl/publications.json`, else `~/.local/state/relctl/publications.json`,
 * shared by every project released from this account on this machine, one entry per deployment,
 * keyed by namespace and calendar month (UTC). Releases made elsewhere (CI, a colleague) are what
 * the Usage Center's export (`--usage FILE`) adds.
 */
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from '../core/errors.js';
import { noUsage, type Usage } from '../core/publishing-budget.js';
import { writeAtomic } from './journal.js';

export interface Publication {
  deploymentId: string;
  namespace: string;
  /** `2026-12`: the calendar month (UTC) the portal counts it in. */
  month: string;
  publishedAt: string;
  /** `groupId:artifactId:version` of the release, when known. */
  component?: string;
  /** Files and bytes uploaded; absent when relctl could not count them (no build output here). */
  files?: number;
  bytes?: number;
}

interface RecordFile {
  version: 1;
  publications: Publication[];
}

export function publicationRecordPath(env: NodeJS.ProcessEnv, home: string): string {
  const xdg = env.XDG_STATE_HOME;
  const base = xdg !== undefined && xdg !== '' && path.isAbsolute(xdg) ? xdg : path.join(home, '.local', 'state');
  return path.join(base, 'relctl', 'publications.json');
}

export async function readPublications(file: string): Promise<Publication[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw unreadable(file, (error as NodeJS.ErrnoException).code ?? String(error));
  }
  let json: Partial<RecordFile>;
  try {
    json = JSON.parse(text) as Partial<RecordFile>;
  } catch (error) {
    throw unreadable(file, `not valid JSON (${(error as Error).message})`);
  }
  if (json === null || typeof json !== 'object' || json.version !== 1 || !Array.isArray(json.publications)) throw unreadable(file, 'not a relctl publication record');
  return json.publications.filter((p) => typeof p?.deploymentId === 'string' && typeof p.month === 'string' && typeof p.namespace === 'string');
}

function unreadable(file: string, why: string): UsageError {
  return new UsageError(`relctl's publication record ${file} is unreadable: ${why}.`, {
    kind: 'corrupt-publication-record',
    fix: `Delete ${file} (the month's usage then comes from --usage FILE, the Usage Center's export), or restore it.`,
  });
}

/** Adds a publication once (by deployment id): `status`, `publish` and `release` may all see the same PUBLISHED. */
export async function recordPublication(file: string, p: Publication): Promise<boolean> {
  const list = await readPublications(file);
  if (list.some((x) => x.deploymentId === p.deploymentId)) return false;
  await mkdir(path.dirname(file), { recursive: true });
  await writeAtomic(file, `${JSON.stringify({ version: 1, publications: [...list, p] } satisfies RecordFile, null, 2)}\n`);
  return true;
}

/** The organization's usage in `month` as recorded here: every namespace of this record, together. */
export function recordedUsage(list: readonly Publication[], month: string): Usage & { namespaces: string[] } {
  const inMonth = list.filter((p) => p.month === month);
  return {
    ...noUsage,
    releases: inMonth.length,
    files: inMonth.reduce((n, p) => n + (p.files ?? 0), 0),
    bytes: inMonth.reduce((n, p) => n + (p.bytes ?? 0), 0),
    namespaces: [...new Set(inMonth.map((p) => p.namespace))],
  };
}

/** The last recorded size of a component's release: the estimate before anything is built. */
export function lastSizeOf(list: readonly Publication[], groupArtifact: string): { files: number; bytes: number } | undefined {
  const last = [...list].reverse().find((p) => p.component?.startsWith(`${groupArtifact}:`) === true && p.files !== undefined);
  return last === undefined ? undefined : { files: last.files!, bytes: last.bytes ?? 0 };
}

