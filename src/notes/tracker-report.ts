import type { CheckReport } from '../core/findings.js';
import { findingsText } from '../ui/render/findings.js';
import type { Style } from '../ui/style.js';

/**
 * The tracker check's lines for the terminal. "passed" only when every reference was found and
 * read: a reference that does not exist or could not be asked leaves the check unfinished, whatever
 * its severity, so its summary says so instead (DESIGN §11). undefined: nothing to say.
 */
export function trackerReport(report: CheckReport, refsChecked: number, c: Style): string | undefined {
  if (report.findings.length === 0) return refsChecked === 0 ? undefined : c.green(`tracker check: passed (${refsChecked} reference${refsChecked === 1 ? '' : 's'} resolved)`);
  const text = findingsText(report, c, 'tracker check').split('\n');
  const open = report.findings.filter((f) => f.code === 'tracker-unknown' || f.code === 'tracker-unreachable').length;
  if (!report.ok || open === 0) return text.join('\n');
  text[text.length - 1] = c.yellow(`tracker check: not passed: ${open} of ${refsChecked} reference${refsChecked === 1 ? '' : 's'} could not be confirmed (unknown or unreachable; --strict makes this an error)`);
  return text.join('\n');
}
