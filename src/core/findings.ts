/**
 * Findings are what checks produce (preflight, keys check, verify). Their `code` values are a
 * public contract (DESIGN §3, §4): CI users filter on them, so never rename one.
 */
import { oneLine } from './plain-text.js';

export type Severity = 'error' | 'warning';

export interface Finding {
  code: string;
  severity: Severity;
  message: string;
  /** Relative to the project root, forward slashes. */
  file?: string;
  /** 1-based. */
  line?: number;
  /** `groupId:artifactId` for Maven, the project path (`:web`) for Gradle. */
  module?: string;
  /** The next step, one sentence. */
  fix: string;
  /**
   * The value the finding is about, where a fix acts on it (the server id of server-id-mismatch).
   * Not part of the --json contract: findingToJson leaves it out.
   */
  subject?: string;
}

/** A check that did not run, and why (DESIGN §3: never silently dropped). */
export interface SkippedCheck {
  /** The finding code or check name, e.g. `not-snapshot`. */
  check: string;
  /** One sentence, e.g. `version computed by axion-release`. */
  why: string;
  /** The module it concerns, when it is one module's. */
  module?: string;
}

export interface CheckReport {
  ok: boolean;
  findings: Finding[];
  /** Checks that could not run; absent or empty when every applicable check ran. */
  skipped?: SkippedCheck[];
}

export function hasErrors(findings: readonly Finding[]): boolean {
  return findings.some((f) => f.severity === 'error');
}

const severityRank: Record<Severity, number> = { error: 0, warning: 1 };

/** Stable order: by module, then file, then line, then severity, then code. */
export function sortFindings(findings: readonly Finding[]): Finding[] {
  return [...findings].sort(
    (a, b) =>
      (a.module ?? '').localeCompare(b.module ?? '') ||
      (a.file ?? '').localeCompare(b.file ?? '') ||
      (a.line ?? 0) - (b.line ?? 0) ||
      severityRank[a.severity] - severityRank[b.severity] ||
      a.code.localeCompare(b.code),
  );
}

/**
 * With `skipped` given (preflight), the report always carries the list, empty when every check ran.
 * A message or fix quotes values from files (a developer's name, a module folder): each is one line
 * in every format, so a value holding a line break cannot start a line of its own in a log
 * (DESIGN §3), nor break the indented block of the text report.
 */
export function toReport(findings: readonly Finding[], skipped?: readonly SkippedCheck[]): CheckReport {
  const sorted = sortFindings(findings.map(oneLineProse));
  const report: CheckReport = { ok: !hasErrors(sorted), findings: sorted };
  if (skipped !== undefined) report.skipped = uniqueSkipped(skipped);
  return report;
}

function oneLineProse(f: Finding): Finding {
  const message = oneLine(f.message);
  const fix = oneLine(f.fix);
  return message === f.message && fix === f.fix ? f : { ...f, message, fix };
}

/** Each check + why (+ module) once, in first-seen order: several gatherers may notice the same gap. */
export function uniqueSkipped(skipped: readonly SkippedCheck[]): SkippedCheck[] {
  const seen = new Set<string>();
  const out: SkippedCheck[] = [];
  for (const s of skipped) {
    const key = `${s.check}\u0000${s.why}\u0000${s.module ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(s);
  }
  return out;
}

/** The JSON shape of one skipped check: `check`, `why`, then `module` when there is one. */
export function skippedToJson(s: SkippedCheck): Record<string, unknown> {
  return s.module === undefined ? { check: s.check, why: s.why } : { check: s.check, why: s.why, module: s.module };
}

/** The JSON shape of one finding: keys in the documented order, absent ones omitted. */
export function findingToJson(f: Finding): Record<string, unknown> {
  const out: Record<string, unknown> = { code: f.code, severity: f.severity, message: f.message };
  if (f.file !== undefined) out.file = f.file;
  if (f.line !== undefined) out.line = f.line;
  if (f.module !== undefined) out.module = f.module;
  out.fix = f.fix;
  return out;
}
