import { describe, expect, it } from 'vitest';
import { fleetReportOf, hostile, hostileFleet, uportalFleet } from '../../../test/helpers/fleet-report.js';
import type { Style } from '../../ui/style.js';
import { fleetText } from './fleet-text.js';

/** A line GitHub Actions would run as a workflow command (the runner trims leading white space). */
const workflowCommand = (line: string): boolean => line.trimStart().startsWith('::');

describe('fleetText', () => {
  it('prints the table parents first, then the failing repositories, the environment and the counts', () => {
    const lines = fleetText(uportalFleet()).split('\n');
    expect(lines[0]).toMatch(/^REPOSITORY +BUILD +ROUTE +PARENT +VERDICT +BLOCKING +LAST RELEASE$/);
    expect(lines.slice(1, 6).map((l) => l.split(/ +/)[0])).toEqual([
      'uPortal-Project/uportal-parent',
      'uPortal-Project/uPortal',
      'uPortal-Project/resource-server',
      'uPortal-Project/uPortal-start',
      'uPortal-Project/NotificationPortlet',
    ]);
    expect(lines[2]).toMatch(/org\.jasig\.parent:jasig-parent:91 \(uPortal-Project\/uportal-parent\) +waits-on-parent +legacy-staging-host, missing-developers +v5\.16\.1 \(published: unknown\)$/);
    expect(lines[1]).toContain('jasig-parent-91 (published: yes)');
    expect(lines[4]).toMatch(/ +- +not-published +- +v5\.16\.1\.0 \(published: no\)$/);
    expect(lines[5]).toMatch(/error +- +-$/);

    const text = lines.join('\n');
    expect(text).toContain('\nblocked: uPortal-Project/uportal-parent\n  error   legacy-staging-host pom.xml:120: distributionManagement');
    expect(text).toContain('  error   missing-developers pom.xml:4: No <developers> in the POM or its parents: Maven Central requires at least one. (fix in uPortal-Project/uportal-parent)');
    expect(text).toContain('\nerror: uPortal-Project/NotificationPortlet\n  error   could not audit: clone-failed: git clone failed: Repository not found.\n          fix: Check the name');
    // Ready and not-published repositories get no details section.
    expect(text).not.toMatch(/^(ready|not-published): /m);
    expect(text).toContain('\nenvironment (about this machine, decide no verdict):\n  error   signing-keyring-missing: No secret key');
    expect(text.match(/signing-keyring-missing/g)).toHaveLength(1);
    expect(lines.at(-1)).toBe('fleet: 5 repositories: 1 ready, 1 blocked, 1 waits-on-parent, 1 not-published, 1 error');
  });

  it('keeps every value from a repository on one line, so no line is a workflow command', () => {
    const text = fleetText(hostileFleet());
    expect(text).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f\u202e]/);
    expect(text.split('\n').filter(workflowCommand)).toEqual([]);
    expect(text).toContain('Developer "Jane Doe ::error::x" has no email <script>alert(1)</script> & <b>|</b> red evil');
    expect(text).toContain('org.evil:parent:1 ::warning::<script>alert(1)</script> (uPortal-Project/uportal-parent)');
    // A long name is printed whole; the other rows' columns stay aligned.
    expect(text).toContain(hostile.longName);
    const rows = text.split('\n').slice(1, 6);
    expect(new Set(rows.map((r) => r.search(/ (maven|gradle|none) /)))).toEqual(new Set([41]));
  });

  it('quotes a repository name that would start its row as a workflow command', () => {
    const report = fleetReportOf([{ ...uportalFleet().repositories[2]!, name: '  ::error::owned/x\n::warning::y' }]);
    const lines = fleetText(report).split('\n');
    expect(lines[1]).toMatch(/^" {2}::error::owned\/x ::warning::y" +maven/);
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

  it('says so for an empty fleet', () => {
    expect(fleetText(fleetReportOf([]))).toBe('no repositories\n\nfleet: 0 repositories: 0 ready, 0 blocked, 0 waits-on-parent, 0 not-published, 0 error');
  });
});
