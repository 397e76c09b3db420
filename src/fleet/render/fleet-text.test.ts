import { describe, expect, it } from 'vitest';
import { bigFleet, fleetReportOf, hostileFleet, uportalFleet } from '../../../test/helpers/fleet-report.js';
import type { Style } from '../../ui/style.js';
import { fleetText } from './fleet-text.js';

/** A line GitHub Actions would run as a workflow command (the runner trims leading white space). */
const workflowCommand = (line: string): boolean => line.trimStart().startsWith('::');

describe('fleetText', () => {
  it('leads with the header, the counts and the plan, then the table parents first, the findings by whose fix they are, the environment', () => {
    const all = fleetText(uportalFleet(), undefined, { date: '2026-12-06', version: '9.9.9' }).split('\n');
    expect(all.slice(0, 6)).toEqual([
      'relctl fleet readiness · 2026-12-06 · relctl 9.9.9',
      '5 repositories: 1 ready, 1 blocked, 1 waits-on-parent, 1 not-published, 1 error',
      '',
      'Next steps (the plan needs 2 releases):',
      '  1. Fix and release uPortal-Project/uportal-parent (2 findings: 1 mechanical, missing-developers needs a person) → unblocks 1',
      '  2. Look at 1 repository the audit could not read: uPortal-Project/NotificationPortlet',
    ]);
    const lines = all.slice(all.indexOf('') + 1).slice(all.slice(all.indexOf('') + 1).indexOf('') + 1);
    expect(lines[0]).toMatch(/^REPOSITORY +VERDICT +BLOCKING +LAST RELEASE$/);
    // 80 columns: the last release and the codes give way first, a long name is clipped in its middle, the verdict never.
    expect(lines.slice(1, 6).map((l) => l.split(/ {2,}/)[0])).toEqual([
      'uPortal-Project/uportal-parent',
      'uPortal-Project/uPortal',
      'uPortal-Project…esource-server',
      'uPortal-Project/uPortal-start',
      'uPortal-Project…icationPortlet',
    ]);
    // The last release is its version, marked only when Maven Central does not have it or could not say; the legend says so.
    expect(lines[1]).toMatch(/ +blocked +legacy-staging-… +91$/);
    expect(lines[2]).toMatch(/^uPortal-Project\/uPortal +waits-on-parent +legacy-staging-… +5\.16\.1 \(\?\)$/);
    expect(lines[4]).toMatch(/ +not-published +- +5\.16\.1\.0 \(no\)$/);
    expect(lines[5]).toMatch(/error +- +-$/);
    expect(lines.slice(6, 8)).toEqual(["LAST RELEASE: the newest release tag's version, on Maven Central unless marked", '(no): not there, (?): could not be asked.']);
    for (const l of lines.slice(0, 8)) expect(l.length, l).toBeLessThanOrEqual(80);

    const text = lines.join('\n');
    // One paragraph per fleet parent, each fix said once; the waiting child gets its <parent> move, not the parent's fix.
    expect(text).toContain('\nblocked: uPortal-Project/uportal-parent: 1 repository waits on this\n  error   legacy-staging-host pom.xml:120: distributionManagement');
    expect(text).toContain('  error   missing-developers pom.xml:4: No <developers> in the POM or its parents: Maven Central requires at least one. (in the released version the children name)');
    expect(text).toContain('\n  waits   uPortal-Project/uPortal: after uPortal-Project/uportal-parent releases: move <parent><version> 91 → its fixed release\n');
    expect(text.match(/Add <developers>/g)).toHaveLength(1);
    expect(text).not.toMatch(/^\w[\w-]*: uPortal-Project\/uPortal$/m);
    expect(text).toContain('\nerror: uPortal-Project/NotificationPortlet\n  error   could not audit: clone-failed: git clone failed: Repository not found.\n          fix: Check the name');
    // Ready and not-published repositories get no details section.
    expect(text).not.toMatch(/^(ready|not-published): /m);
    expect(text).toContain('\nenvironment (about this machine: they change no verdict):\n  error   signing-keyring-missing: No secret key');
    expect(text.match(/signing-keyring-missing/g)).toHaveLength(1);
    expect(lines.at(-1)).toBe('fleet: 5 repositories: 1 ready, 1 blocked, 1 waits-on-parent, 1 not-published, 1 error');
  });

  it('keeps every value from a repository on one line, so no line is a workflow command', () => {
    const hostile = hostileFleet();
    // A document read back (report --from) may hold anything as the day it was checked: the legend's wrapped line must not start with it.
    for (const r of hostile.repositories) if (r.lastRelease !== null) r.lastRelease = { ...r.lastRelease, checked: '::error::checked' };
    expect(fleetText(hostile)).not.toContain('::error::checked');
    const text = fleetText(hostileFleet());
    expect(text).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f\u202e]/);
    expect(text.split('\n').filter(workflowCommand)).toEqual([]);
    expect(text).toContain('Developer "Jane Doe ::error::x" has no email <script>alert(1)</script> & <b>|</b> red evil');
    // A long name is clipped in the middle (its start and its end kept); the columns stay aligned.
    const table = text.split('\n').slice(text.split('\n').findIndex((l) => l.startsWith('REPOSITORY')));
    const rows = table.slice(0, table.findIndex((l) => l.startsWith('LAST RELEASE:')));
    expect(rows.some((r) => r.startsWith('uPortal-Project…') && r.split(/ {2,}/)[0]!.endsWith('-name-end'))).toBe(true);
    expect(new Set(rows.slice(1).map((r) => r.search(/ {2}(ready|blocked|waits-on-parent|not-published|error)\b/)))).toHaveProperty('size', 1);
    for (const r of rows) expect(r.length, r).toBeLessThanOrEqual(80);
  });

  it('keeps the table within 80 columns for a fleet with long names, each name still told apart', () => {
    const report = bigFleet(40);
    const text = fleetText(report).split('\n');
    const start = text.findIndex((l) => l.startsWith('REPOSITORY'));
    const rows = text.slice(start, text.findIndex((l) => l.startsWith('LAST RELEASE:')));
    expect(rows).toHaveLength(41);
    for (const r of rows) expect(r.length, r).toBeLessThanOrEqual(80);
    const shown = rows.slice(1).map((r) => r.split(/ {2,}/)[0]);
    expect(new Set(shown).size).toBe(40);
  });

  it('quotes a repository name that would start its row as a workflow command', () => {
    const report = fleetReportOf([{ ...uportalFleet().repositories[2]!, name: '  ::error::owned/x\n::warning::y' }]);
    const lines = fleetText(report).split('\n');
    expect(lines[lines.findIndex((l) => l.startsWith('REPOSITORY')) + 1]).toMatch(/^" {2}::error::owned\/x ::warning::y" +ready/);
    expect(lines.filter(workflowCommand)).toEqual([]);
  });

  it('colours the verdicts and the summary with the given style, and pads before colouring', () => {
    const tag = (name: string) => (text: string) => `<${name}>${text}</${name}>`;
    const style: Style = { bold: tag('b'), dim: tag('d'), red: tag('r'), green: tag('g'), yellow: tag('y'), cyan: tag('c') };
    const text = fleetText(uportalFleet(), style);
    expect(text).toContain('<y>waits-on-parent</y>');
    expect(text).toContain('<g>ready          </g>');
    expect(text).toContain('<b><r>error          </r></b>');
    expect(text.split('\n').at(-1)).toBe('<r>fleet: 5 repositories: 1 ready, 1 blocked, 1 waits-on-parent, 1 not-published, 1 error</r>');
  });

  it('shows a ready repository\'s warnings: ready (1 warning), listed', () => {
    const [first, , resource] = uportalFleet().repositories;
    const warning = first!.findings.find((f) => f.severity === 'warning')!;
    const text = fleetText(fleetReportOf([{ ...resource!, findings: [{ ...warning, code: 'legacy-host-repository', message: 'A <repository> still points at oss.sonatype.org.' }] }]));
    expect(text).toMatch(/^uPortal-Project\/resource-server .* ready \(1 warning\) /m);
    expect(text).toContain('\nready (1 warning): uPortal-Project/resource-server\n  warning legacy-host-repository pom.xml:88: A <repository> still points at oss.sonatype.org.');
  });

  it('says so for an empty fleet', () => {
    expect(fleetText(fleetReportOf([]))).toBe('0 repositories: 0 ready, 0 blocked, 0 waits-on-parent, 0 not-published, 0 error\n\nno repositories\n\nfleet: 0 repositories: 0 ready, 0 blocked, 0 waits-on-parent, 0 not-published, 0 error');
  });
});
