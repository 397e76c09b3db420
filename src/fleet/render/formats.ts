/**
 * The fleet report in the format asked for, and the one way a report reaches a file (`--out`):
 * under the output rule (secrets redacted, plain text), written whole then renamed.
 */
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { CommandContext } from '../../io/command-context.js';
import type { Style } from '../../ui/style.js';
import type { FleetReport } from '../report-types.js';
import { fleetHtml } from './fleet-html.js';
import { fleetJunit } from './fleet-junit.js';
import { fleetMarkdown } from './fleet-markdown.js';
import type { FleetReportMeta } from './fleet-sections.js';
import { fleetText } from './fleet-text.js';

export type FleetFormat = 'text' | 'markdown' | 'junit' | 'html';

export function renderFleet(format: FleetFormat, report: FleetReport, style: Style, meta?: FleetReportMeta): string {
  switch (format) {
    case 'markdown':
      return fleetMarkdown(report, meta === undefined ? {} : { meta });
    case 'junit':
      return fleetJunit(report);
    case 'html':
      return fleetHtml(report, meta);
    default:
      return fleetText(report, style, meta);
  }
}

/** Writes `text` (already under the output rule) whole, then renames it into place. */
export async function writeFleetFile(ctx: CommandContext, file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, text);
  await rename(tmp, file);
  ctx.out.info(`wrote ${file}`);
}
