/**
 * The words of relctl's fix commit and pull request: what changes and why, from the findings it
 * fixes, so a reviewer needs nothing else. Pure; the same inputs give the same text (a run with
 * nothing new then edits nothing). Every value from a repository is quoted as the dashboard quotes
 * it (markdownText): no mention, issue reference, image, link or HTML goes out from the fleet's bot.
 */
import { markdownText } from '../render/fleet-markdown.js';
import { oneLine } from '../render/fleet-rows.js';
import type { FleetRepositoryReport } from '../report-types.js';
import type { FileChange } from './own-edits.js';
import type { ParentBump } from './parent-bump.js';

/** A repository's value, inert in the body. */
const quoted = (value: unknown): string => markdownText(oneLine(value));

const footer = 'Opened by `relctl fleet fix`. A later run updates this pull request (the branch relctl/central-portal) instead of opening another; close it to stop.';

export function describeChange(report: FleetRepositoryReport, changes: readonly FileChange[], bump: ParentBump | undefined): { title: string; body: string } {
  const own = changes.flatMap((c) => c.edits).filter((e) => e.code !== 'parent-version');
  const codes = [...new Set(own.map((e) => e.code))];
  const move = bump === undefined ? undefined : `${bump.coordinates} ${bump.to}`;
  const title = codes.length > 0 ? `Publish through the Central Portal (${codes.join(', ')})${move === undefined ? '' : ` and move to ${move}`}` : `Move to ${move}`;
  const lines: string[] = [];
  if (own.length > 0) {
    lines.push('The release would fail at Maven Central as things stand. This changes:', '');
    for (const e of own) lines.push(`- ${quoted(e.file)} line ${e.line} (${e.code}): ${quoted(e.before) || '(nothing)'} → ${quoted(e.after)}`);
    const fixes = report.findings.filter((f) => f.fixIn === undefined && codes.includes(f.code));
    if (fixes.length > 0) lines.push('', 'Why:', '', ...[...new Set(fixes.map((f) => `- ${f.code}: ${quoted(f.message)}`))]);
  }
  if (bump !== undefined) {
    if (lines.length > 0) lines.push('');
    lines.push(
      `Moves \`<parent><version>\` in ${quoted(bump.change.file)} from ${quoted(bump.from)} to ${quoted(bump.to)}, released from ${quoted(bump.parentRepo)} (tag ${quoted(bump.tag)}, on the public repository). ` +
        `It fixes what this repository inherited: ${[...new Set(report.findings.filter((f) => f.severity === 'error' && f.fixIn !== undefined).map((f) => f.code))].join(', ')}.`,
    );
  }
  lines.push('', footer);
  return { title, body: lines.join('\n') };
}
