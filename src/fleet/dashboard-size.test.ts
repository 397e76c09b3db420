import { describe, expect, it } from 'vitest';
import { bigFleet, uportalFleet } from '../../test/helpers/fleet-report.js';
import { dashboardBody, issueBodyLimit } from './dashboard-issue.js';
import { fleetMarkdown } from './render/fleet-markdown.js';

const same = (text: string): string => text;
const meta = { date: '2026-12-06', version: '9.9.9' };

describe('dashboardBody measured at any fleet size (issue 43 item 6)', () => {
  it('is the whole report when it fits', () => {
    expect(dashboardBody(uportalFleet(), same, meta)).toBe(fleetMarkdown(uportalFleet(), { meta }));
  });

  it.each([100, 500, 2000])('fits GitHub\'s %i-repository dashboard in 65,536 characters, keeping the counts, the plan and the not-ready rows', (size) => {
    const report = bigFleet(size);
    const full = fleetMarkdown(report, { meta });
    const body = dashboardBody(report, same, meta);
    console.log(`${size} repositories: the whole report ${full.length} characters, the dashboard ${body.length}`);
    expect(body.length).toBeLessThanOrEqual(issueBodyLimit);
    expect(body).toContain(`**${size} repositories: `);
    expect(body).toContain('## Next steps (the plan needs');
    expect(body).toContain('1. Fix and release bigorg/big-parent (2 findings: 1 mechanical, missing-developers needs a person) → unblocks');
    if (full.length > issueBodyLimit) expect(body).toMatch(/do not fit in an issue \(\d+ characters; GitHub takes 65536\): the relctl-fleet-report artifact/);
    const notReady = report.repositories.filter((r) => r.verdict !== 'ready');
    const shown = notReady.filter((r) => body.includes(`| [${r.name}](https://github.com/${r.name}) |`));
    // Every not-ready row that fits is kept, and the rest are counted, never silently dropped.
    if (shown.length < notReady.length) expect(body).toContain(`_${report.repositories.length - shown.length} more repositories (${notReady.length - shown.length} of them not ready) not shown here._`);
    expect(shown.length).toBeGreaterThan(size === 2000 ? 200 : notReady.length - 1);
  });
});
