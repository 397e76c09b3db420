/**
 * Maven Central's monthly publishing limits (DESIGN §5a; Sonatype's "Maven Central Publishing
 * Limits" and "Usage Center" pages): per organization (all its namespaces) and calendar month, the
 * free tier allows 300 files, 15 MB of release size and 3 releases. A release is one published
 * deployment (Sonatype counts "release events" and does not define them further). Pure: the
 * budget, what a release consumes, and the verdict; the record and the export are read elsewhere.
 */

export interface PublishingLimits {
  files: number;
  bytes: number;
  releases: number;
}

/** `publishingLimits` in relctl.config.json: the limits, or false for Publisher Pro (no cap checked). */
export type PublishingLimitsConfig = PublishingLimits | false;

/** The free tier as the Usage Center lists it: "15 MB" is decimal, as Sonatype writes sizes. */
export const freeTier: PublishingLimits = { files: 300, bytes: 15_000_000, releases: 3 };

export interface Usage {
  files: number;
  bytes: number;
  releases: number;
}

export const noUsage: Usage = { files: 0, bytes: 0, releases: 0 };

const sizeUnits: Record<string, number> = { '': 1, b: 1, kb: 1e3, mb: 1e6, gb: 1e9, kib: 1024, mib: 1024 ** 2, gib: 1024 ** 3 };

/** `15MB`, `15 MB`, `1.5 GiB`, `2048`: bytes, or undefined when it is not a size. */
export function parseSize(text: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*$/.exec(text.replace(/,/g, ''));
  const unit = sizeUnits[m?.[2]?.toLowerCase() ?? 'x'];
  return m === null || unit === undefined ? undefined : Math.round(Number(m[1]) * unit);
}

/**
 * Validates `publishingLimits`: false (Publisher Pro), or an object with any of files, releases
 * (whole numbers) and bytes (a number or a size such as "15MB"); what is left out is the free tier's.
 */
export function validatePublishingLimits(json: unknown): { problems: string[]; value?: PublishingLimitsConfig } {
  if (json === false) return { problems: [], value: false };
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    return { problems: ['must be false (Publisher Pro: no limit checked) or an object {"files": N, "bytes": N or "15MB", "releases": N}'] };
  }
  const problems: string[] = [];
  const value: PublishingLimits = { ...freeTier };
  for (const [key, v] of Object.entries(json)) {
    if (key === 'files' || key === 'releases') {
      if (typeof v === 'number' && Number.isInteger(v) && v >= 0) value[key] = v;
      else problems.push(`publishingLimits.${key} must be a whole number of 0 or more`);
    } else if (key === 'bytes') {
      const n = typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : typeof v === 'string' ? parseSize(v) : undefined;
      if (n === undefined) problems.push('publishingLimits.bytes must be a number of bytes or a size such as "15MB"');
      else value.bytes = n;
    } else {
      problems.push(`publishingLimits.${key} is not a known key (known: files, bytes, releases)`);
    }
  }
  return problems.length > 0 ? { problems } : { problems, value };
}

/** `publishingLimits` in the config's JSON Schema. */
export const publishingLimitsSchema = {
  description: "the organization's monthly publishing limits (default the free tier: 300 files, 15 MB, 3 releases); false for Publisher Pro",
  oneOf: [
    { const: false },
    {
      type: 'object',
      additionalProperties: false,
      properties: {
        files: { type: 'integer', minimum: 0, default: freeTier.files },
        bytes: { oneOf: [{ type: 'integer', minimum: 0 }, { type: 'string', pattern: '^\\s*\\d+(\\.\\d+)?\\s*([kKmMgG]i?)?[bB]?\\s*$' }], default: freeTier.bytes },
        releases: { type: 'integer', minimum: 0, default: freeTier.releases },
      },
    },
  ],
};

export type Metric = keyof Usage;
export const metrics: readonly Metric[] = ['releases', 'files', 'bytes'];

export interface BudgetVerdict {
  /** undefined: Publisher Pro (no limits checked). */
  limits?: PublishingLimits;
  month: string;
  used: Usage;
  /** What this release needs; files and bytes undefined when nothing could be counted yet. */
  needs: { releases: number; files?: number; bytes?: number };
  /** Where `used` came from: relctl's record, the Usage Center export, or both (the larger of each). */
  usedFrom: string[];
  /** The metrics this release would take over the limit. */
  over: Metric[];
}

/** `2026-12` of an ISO time, in UTC as the portal's calendar month. */
export function monthOf(iso: string): string {
  return iso.slice(0, 7);
}

export function budgetVerdict(
  limits: PublishingLimitsConfig,
  used: Usage,
  needs: BudgetVerdict['needs'],
  month: string,
  usedFrom: string[],
): BudgetVerdict {
  const base = { month, used, needs, usedFrom };
  if (limits === false) return { ...base, over: [] };
  const over = metrics.filter((m) => used[m] + (needs[m] ?? 0) > limits[m]);
  return { ...base, limits, over };
}

/** Sizes as the Usage Center writes them (decimal MB). */
export function sizeMB(bytes: number): string {
  return `${(bytes / 1e6).toFixed(bytes >= 1e7 || bytes === 0 ? 0 : 1)} MB`;
}

const amount = (m: Metric, n: number): string => (m === 'bytes' ? sizeMB(n) : `${n} ${m === 'files' ? 'file' : 'release'}${n === 1 ? '' : 's'}`);

/** One line per metric: used + this release against the limit. */
export function budgetLines(v: BudgetVerdict): string[] {
  const from = v.usedFrom.length === 0 ? 'nothing recorded this month' : `from ${v.usedFrom.join(' and ')}`;
  if (v.limits === undefined) return [`publishing budget ${v.month}: Publisher Pro (publishingLimits: false), no monthly limit checked`];
  const lines = [`publishing budget ${v.month} (organization; used so far: ${from}):`];
  for (const m of metrics) {
    const need = v.needs[m];
    const flag = v.over.includes(m) ? '  OVER' : '';
    lines.push(
      need === undefined
        ? `  ${m.padEnd(8)} used ${amount(m, v.used[m])} of ${amount(m, v.limits[m])} (this release: not counted, no build output yet)`
        : `  ${m.padEnd(8)} used ${amount(m, v.used[m])} + this release ${amount(m, need)} of ${amount(m, v.limits[m])}${flag}`,
    );
  }
  return lines;
}

export function budgetJson(v: BudgetVerdict): Record<string, unknown> {
  return {
    month: v.month,
    limits: v.limits ?? false,
    used: v.used,
    needs: { releases: v.needs.releases, files: v.needs.files ?? null, bytes: v.needs.bytes ?? null },
    usedFrom: v.usedFrom,
    over: v.over,
    ok: v.over.length === 0,
  };
}

/** A file of the release, by its path in the repository layout, and its size. */
export interface CountedFile {
  path: string;
  bytes: number;
}

export interface CostGroup {
  what: string;
  files: number;
  bytes: number;
  /** The portal does not require these: dropping them lowers the count. */
  optional: boolean;
}

const optionalChecksum = /\.(sha256|sha512)$/;
const signatureChecksum = /\.asc\.(md5|sha1|sha256|sha512)$/;

/**
 * Which kinds of file cost what: required ones (POM, main artifact, sources, javadoc, signatures,
 * .md5/.sha1) and the ones the portal does not require (.sha256/.sha512, checksums of signatures,
 * other classifiers such as tests or distribution archives), largest first, so the user sees
 * what to drop.
 */
export function costGroups(files: readonly CountedFile[]): CostGroup[] {
  const groups = new Map<string, CostGroup>();
  const add = (what: string, optional: boolean, f: CountedFile): void => {
    const g = groups.get(what) ?? { what, files: 0, bytes: 0, optional };
    g.files += 1;
    g.bytes += f.bytes;
    groups.set(what, g);
  };
  for (const f of files) {
    const name = f.path.split('/').pop() ?? f.path;
    if (signatureChecksum.test(name)) add('checksums of signatures (.asc.md5/.asc.sha1…)', true, f);
    else if (optionalChecksum.test(name)) add('.sha256/.sha512 checksums', true, f);
    else {
      const cls = classifierOf(f.path);
      if (cls === undefined || cls === 'sources' || cls === 'javadoc') add(cls === undefined ? 'POMs, main artifacts, signatures, .md5/.sha1' : `${cls} jars (+ signatures, checksums)`, false, f);
      else add(`classifier "${cls}" (+ signatures, checksums)`, true, f);
    }
  }
  return [...groups.values()].sort((a, b) => Number(b.optional) - Number(a.optional) || b.bytes - a.bytes);
}

/** The classifier of `g/a/v/a-v-cls.ext[.asc|.md5…]` in the repository layout, else undefined. */
function classifierOf(p: string): string | undefined {
  const parts = p.split('/');
  if (parts.length < 4) return undefined;
  const [artifactId, version, name] = [parts[parts.length - 3]!, parts[parts.length - 2]!, parts[parts.length - 1]!];
  const stem = `${artifactId}-${version}-`;
  if (!name.startsWith(stem)) return undefined;
  return name.slice(stem.length).split('.')[0] || undefined;
}

export function costLines(groups: readonly CostGroup[]): string[] {
  return groups.map((g) => `  ${g.optional ? 'optional' : 'required'}  ${String(g.files).padStart(4)} files ${sizeMB(g.bytes).padStart(8)}  ${g.what}`);
}

/** What to drop, said when over budget: the optional groups, or the plain way out. */
export function overBudgetFix(v: BudgetVerdict, groups: readonly CostGroup[]): string {
  const optional = groups.filter((g) => g.optional);
  const drop =
    optional.length > 0
      ? `Drop what the portal does not require (${optional.map((g) => `${g.what}: ${g.files} files, ${sizeMB(g.bytes)}`).join('; ')}), `
      : '';
  const wait = v.over.includes('releases') ? 'wait for next month (usage resets on the 1st, UTC), ' : 'wait for next month, ';
  return `${drop}${wait}or upgrade to Publisher Pro ("publishingLimits": false); --over-budget goes on anyway and the portal may refuse the publication.`;
}

/** `summary.publishingBudget` of a fleet audit or fix: the releases its plan needs against the month's. */
export interface FleetBudget {
  month: string;
  /** The releases the fleet's plan needs (its `summary.releasesNeeded`). */
  releasesNeeded: number;
  releasesUsed: number;
  /** null: Publisher Pro (no limit). */
  releasesLimit: number | null;
  releasesLeft: number | null;
  fits: boolean;
  /** Where releasesUsed comes from (relctl's record, the Usage Center export); empty: nothing recorded. */
  usedFrom: string[];
}

export function fleetBudget(limits: PublishingLimitsConfig, used: Usage, releasesNeeded: number, month: string, usedFrom: readonly string[] = []): FleetBudget {
  const limit = limits === false ? null : limits.releases;
  const left = limit === null ? null : Math.max(0, limit - used.releases);
  return { month, releasesNeeded, releasesUsed: used.releases, releasesLimit: limit, releasesLeft: left, fits: left === null || releasesNeeded <= left, usedFrom: [...usedFrom] };
}

export function fleetBudgetLine(b: FleetBudget): string {
  const releases = (n: number): string => `${n} ${n === 1 ? 'release' : 'releases'}`;
  if (b.releasesLimit === null) return `publishing budget ${b.month}: ${releases(b.releasesNeeded)} needed; Publisher Pro, no monthly limit checked`;
  const verdict = b.fits ? 'fits' : `does not fit: ${releases(b.releasesNeeded - b.releasesLeft!)} over, plan them into later months or move to Publisher Pro`;
  const from = (b.usedFrom ?? []).length === 0 ? '' : `; used counted from ${b.usedFrom.join(' and ')}`;
  return `publishing budget ${b.month}: ${releases(b.releasesNeeded)} needed, ${b.releasesLeft} of ${b.releasesLimit} left this month (${verdict})${from}`;
}
