import type { Style } from '../style.js';
import { oneLine } from '../../core/plain-text.js';
import { findingToJson, skippedToJson, type CheckReport, type Finding, type SkippedCheck } from '../../core/findings.js';

export type FindingsFormat = 'text' | 'github' | 'json';

/** The --json document of every check command (DESIGN §3), plus optional extra fields. */
export function findingsJson(report: CheckReport, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const skipped = report.skipped === undefined ? {} : { skipped: report.skipped.map(skippedToJson) };
  return { ok: report.ok, findings: report.findings.map(findingToJson), ...skipped, ...extra };
}

/** `skipped: not-snapshot (version computed by axion-release)`, one line per check that did not run. */
export function skippedLine(s: SkippedCheck): string {
  return oneLine(`skipped: ${s.check}${s.module === undefined ? '' : ` on ${s.module}`} (${s.why})`);
}

/** Text: grouped by module, one block per module, then a summary line. */
export function findingsText(report: CheckReport, c: Style, subject: string): string {
  const lines: string[] = [];
  const groups = new Map<string, Finding[]>();
  for (const f of report.findings) {
    const key = oneLine(f.module ?? '(project)');
    groups.set(key, [...(groups.get(key) ?? []), f]);
  }
  for (const [module, findings] of groups) {
    lines.push(c.bold(module));
    for (const f of findings) {
      const where = f.file === undefined ? '' : c.dim(` ${oneLine(f.file)}${f.line === undefined ? '' : `:${f.line}`}`);
      const tag = f.severity === 'error' ? c.red('error  ') : c.yellow('warning');
      lines.push(`  ${tag} ${f.code}${where}`);
      lines.push(`          ${f.message}`);
      lines.push(`          ${c.dim('fix:')} ${f.fix}`);
    }
    lines.push('');
  }
  // Said before the summary: a pass with checks left out is a pass of fewer checks.
  const skipped = report.skipped ?? [];
  for (const s of skipped) lines.push(c.dim(skippedLine(s)));
  if (skipped.length > 0) lines.push('');
  lines.push(summaryLine(report, c, subject));
  return lines.join('\n');
}

export function summaryLine(report: CheckReport, c: Style, subject: string): string {
  const errors = report.findings.filter((f) => f.severity === 'error').length;
  const warnings = report.findings.length - errors;
  const counts = `${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}`;
  return report.ok ? c.green(`${subject}: passed (${counts})`) : c.red(`${subject}: failed (${counts})`);
}

/**
 * GitHub Actions workflow commands; properties and data escaped as the runner expects. `fileOf`
 * maps a finding's project-relative file to the path the runner resolves (the repository's).
 */
export function findingsGithub(report: CheckReport, fileOf: (file: string) => string = (f) => f): string {
  const notices = (report.skipped ?? []).map((s) => `::notice::${escapeData(skippedLine(s))}`);
  const annotations = report.findings
    .map((f) => {
      const props: string[] = [];
      if (f.file !== undefined) props.push(`file=${escapeProperty(fileOf(f.file))}`);
      if (f.line !== undefined) props.push(`line=${f.line}`);
      const level = f.severity === 'error' ? 'error' : 'warning';
      const head = props.length > 0 ? ` ${props.join(',')}` : '';
      return `::${level}${head}::${escapeData(`${f.code}: ${f.message} Fix: ${f.fix}`)}`;
    });
  return [...annotations, ...notices].join('\n');
}

export function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}
export function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}
