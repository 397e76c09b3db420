/**
 * Findings controlled as ESLint's are (DESIGN §3): `"rules": { "<code>": "off" | "warning" |
 * "error" }` in relctl.config.json, `--max-warnings N` and `--quiet`. Pure: validation of the
 * configuration, and the report each control turns a checked report into.
 */
import { allFindingCodes } from './finding-groups.js';
import { toReport, type CheckReport, type Severity } from './findings.js';

export const ruleLevels = ['off', 'warning', 'error'] as const;
export type RuleLevel = (typeof ruleLevels)[number];
/** Finding code → the level the project chose for it. */
export type FindingRules = Record<string, RuleLevel>;

/** Problems of a `rules` value (each names the code), and its value when there are none. */
export function validateFindingRules(json: unknown): { problems: string[]; value?: FindingRules } {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    return { problems: ['must be a JSON object of finding codes, e.g. { "missing-developers": "warning" }'] };
  }
  const problems: string[] = [];
  const value: FindingRules = {};
  for (const [code, level] of Object.entries(json)) {
    if (!allFindingCodes.includes(code)) {
      problems.push(`names "${code}", which is not a relctl finding code (the codes are listed in docs/output.md, "Finding codes")`);
    } else if (typeof level !== 'string' || !(ruleLevels as readonly string[]).includes(level)) {
      problems.push(`sets "${code}" to ${JSON.stringify(level)}; a rule is "off", "warning" or "error"`);
    } else value[code] = level as RuleLevel;
  }
  return problems.length > 0 ? { problems } : { problems, value };
}

/** The findings with the project's rules applied: `off` codes dropped, others at their chosen severity. */
export function applyFindingRules(report: CheckReport, rules: FindingRules | undefined): CheckReport {
  if (rules === undefined || Object.keys(rules).length === 0) return report;
  const findings = report.findings
    .filter((f) => rules[f.code] !== 'off')
    .map((f) => {
      const level = rules[f.code];
      return level === undefined || level === 'off' ? f : { ...f, severity: level as Severity };
    });
  // ok is the errors' again: a code turned into a warning no longer fails the run.
  return toReport(findings, report.skipped);
}

export interface FindingControls {
  /** `--max-warnings N`: more warnings than N fail the run (exit 1). */
  maxWarnings?: number;
  /** `--quiet`: only errors are printed; warnings still count for --max-warnings. */
  quiet?: boolean;
}

export interface ControlledReport {
  report: CheckReport;
  /** Warnings found (before --quiet hid them). */
  warnings: number;
  /** Set when the warnings exceed --max-warnings: the sentence that says so. */
  tooManyWarnings?: string;
}

/** Applies --max-warnings (counted before --quiet, as ESLint counts) and --quiet to a report. */
export function controlReport(report: CheckReport, controls: FindingControls): ControlledReport {
  const warnings = report.findings.filter((f) => f.severity === 'warning').length;
  const over = controls.maxWarnings !== undefined && warnings > controls.maxWarnings;
  const findings = controls.quiet === true ? report.findings.filter((f) => f.severity === 'error') : report.findings;
  const controlled: CheckReport = { ...report, findings, ok: report.ok && !over };
  if (!over) return { report: controlled, warnings };
  const tooManyWarnings = `${warnings} warning${warnings === 1 ? '' : 's'} found, more than --max-warnings ${controls.maxWarnings} allows.`;
  return { report: controlled, warnings, tooManyWarnings };
}

/** `--max-warnings` must be a non-negative whole number; undefined when it is not (the caller says so). */
export function parseMaxWarnings(value: string): number | undefined {
  return /^\d+$/.test(value.trim()) ? Number(value.trim()) : undefined;
}

/** One line per configured rule, for --verbose: `rules (relctl.config.json): missing-developers off, ...`. */
export function rulesLine(rules: FindingRules | undefined, fileName: string): string {
  const entries = Object.entries(rules ?? {});
  return entries.length === 0 ? `rules: none set in ${fileName}; every finding at its own severity` : `rules (${fileName}): ${entries.map(([c, l]) => `${c} ${l}`).join(', ')}`;
}
