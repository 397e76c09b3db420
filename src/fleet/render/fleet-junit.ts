import { attr, text } from '../../ui/render/findings-junit.js';
import type { FleetReport } from '../report-types.js';
import { environmentItems, environmentNote, fleetRow, rehearsalLine, rehearsalRows, repositoryDetail, summaryText, type DetailItem, type FleetDetail, type FleetRow, type RehearsalRow } from './fleet-rows.js';

const suite = 'relctl fleet';

/**
 * JUnit XML (Jenkins' junit-10.xsd, as `preflight --format junit`): one suite, one test case per
 * repository, parents first. `blocked` and `waits-on-parent` fail (`<failure>`: the blocking codes
 * and where they are fixed), `error` errs (`<error>`: why the audit could not run); `ready` and
 * `not-published` pass. The machine's findings are the suite's `<system-out>`.
 */
export function fleetJunit(report: FleetReport): string {
  const rehearsals = new Map(rehearsalRows(report).map((h) => [h.name, h]));
  const cases = report.repositories.map((r) => testcase(fleetRow(r), repositoryDetail(r), rehearsals));
  const failures = report.repositories.filter((r) => r.verdict === 'blocked' || r.verdict === 'waits-on-parent').length + [...rehearsals.values()].filter((h) => h.failed).length;
  const errors = report.repositories.filter((r) => r.verdict === 'error').length;
  const counts = `tests="${cases.length}" failures="${failures}" errors="${errors}"`;
  const environment = environmentItems(report);
  const out = environment.length === 0 ? [] : [`    <system-out>${text([`environment (${environmentNote}):`, ...environment.map(describe)].join('\n'))}</system-out>`];
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name=${attr(suite)} ${counts}>`,
    `  <testsuite name=${attr(suite)} ${counts} skipped="0">`,
    `    <properties>\n      <property name="summary" value=${attr(summaryText(report))}/>\n    </properties>`,
    ...cases,
    ...out,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

function testcase(r: FleetRow, detail: FleetDetail, rehearsals: ReadonlyMap<string, RehearsalRow>): string {
  const open = `    <testcase classname="fleet" name=${attr(r.name)}>`;
  const body = text(detail.items.map(describe).join('\n\n'));
  switch (r.verdict) {
    case 'blocked':
    case 'waits-on-parent': {
      const fixIn = detail.fixIn.length === 0 ? '' : ` (fix in ${detail.fixIn.join(', ')})`;
      const message = `${r.verdict}: ${r.blocking || 'no error code'}${fixIn}`;
      return `${open}\n      <failure type=${attr(r.verdict)} message=${attr(message)}>${body}</failure>\n    </testcase>`;
    }
    case 'error': {
      const reason = detail.items.at(-1)?.text ?? 'the audit failed';
      return `${open}\n      <error type="error" message=${attr(reason)}>${body}</error>\n    </testcase>`;
    }
    default: {
      // A ready repository whose rehearsal (fleet rehearse) did not succeed fails too.
      const rehearsal = rehearsals.get(r.name);
      if (rehearsal?.failed === true) return `${open}\n      <failure type="rehearsal" message=${attr(`rehearsal ${rehearsalLine(rehearsal)}`)}/>\n    </testcase>`;
      const release = r.release === '' ? '' : `; last release ${r.release} (on Maven Central: ${r.published})`;
      return `${open}\n      <system-out>${text(`${r.verdict}${release}`)}</system-out>\n    </testcase>`;
    }
  }
}

function describe(item: DetailItem): string {
  return `${item.severity}: ${item.text}${item.fix === undefined ? '' : `\nfix: ${item.fix}`}`;
}
