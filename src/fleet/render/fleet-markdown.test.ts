import { describe, expect, it } from 'vitest';
import { fleetReportOf, hostile, hostileFleet, uportalFleet, uportalRepositories } from '../../../test/helpers/fleet-report.js';
import { fleetMarkdown, markdownText } from './fleet-markdown.js';

/** A GFM table row's cells: GFM splits a row at every `|` that no backslash escapes, before any inline parsing. */
function cells(row: string): string[] {
  return row.replace(/^\|/, '').replace(/\|$/, '').split(/(?<!\\)\|/).map((c) => c.trim());
}

function tableRows(markdown: string): string[][] {
  const lines = markdown.split('\n');
  const start = lines.findIndex((l) => l.startsWith('| repository |'));
  const end = lines.indexOf('', start);
  return lines.slice(start + 2, end).map(cells);
}

describe('fleetMarkdown', () => {
  it('is the dashboard: heading, header, counts, the plan, one row per repository, findings by whose fix they are, the environment', () => {
    const md = fleetMarkdown(uportalFleet(), { meta: { date: '2026-12-06', version: '9.9.9' } });
    expect(md.startsWith('# relctl fleet readiness\n\n_2026-12-06 · relctl 9.9.9_\n\n**5 repositories: 1 ready, 1 blocked, 1 waits-on-parent, 1 not-published, 1 error**\n\n## Next steps (the plan needs 2 releases)\n\n1. Fix and release uPortal-Project/uportal-parent (2 findings: 1 mechanical, missing-developers needs a person) → unblocks 1\n2. Look at')).toBe(true);
    expect(md).toContain('| repository | verdict | blocking | parent | last release | pull request |\n| --- | --- | --- | --- | --- | --- |\n');
    const rows = tableRows(md);
    expect(rows.map((r) => r[0])).toEqual(uportalRepositories().map((r) => `[${r.name}](https://github.com/${r.name})`));
    expect(rows[0]).toEqual(['[uPortal-Project/uportal-parent](https://github.com/uPortal-Project/uportal-parent)', '**blocked**', 'legacy-staging-host', 'org.sonatype.oss:oss-parent:9', 'jasig-parent-91 (on Maven Central: yes)', '[#&#8203;42 open](https://github.com/uPortal-Project/uportal-parent/pull/42)']);
    expect(rows[1]!.slice(1, 5)).toEqual(['**waits-on-parent**', 'legacy-staging-host, missing-developers', 'uPortal-Project/uportal-parent', 'v5.16.1 (on Maven Central: unknown)']);
    expect(rows[4]).toEqual(['[uPortal-Project/NotificationPortlet](https://github.com/uPortal-Project/NotificationPortlet)', '**error**', '—', '—', '—', '—']);

    expect(md).toContain('## Findings by whose fix they are\n\n<details open>\n<summary>uPortal-Project/uportal-parent: blocked, 1 repository waits on this</summary>\n\n- error: legacy-staging-host [pom.xml:120](https://github.com/uPortal-Project/uportal-parent/blob/0123456789abcdef0123456789abcdef01234567/pom.xml#L120):');
    expect(md).toContain('- uPortal-Project/uPortal: after uPortal-Project/uportal-parent releases: move &lt;parent&gt;&lt;version&gt; 91 → its fixed release\n');
    expect(md.match(/Fix: Add &lt;developers&gt;/g)).toHaveLength(1);
    expect(md).toContain('<summary>uPortal-Project/NotificationPortlet: error</summary>\n\n- error: could not audit: clone-failed: git clone failed: Repository not found. Fix: Check');
    expect(md).not.toContain('<summary>uPortal-Project/resource-server');
    expect(md).toContain('## Environment\n\nFindings about this machine: they change no verdict.\n\n- error: signing-keyring-missing: No secret key in the gpg keyring of this machine. (seen in uPortal-Project/uportal-parent, uPortal-Project/uPortal, uPortal-Project/resource-server and 1 more) Fix: Import the release key (relctl keys import) or set RELCTL\\_GPG\\_KEY.');
  });

  it('shows a ready repository with warnings as ready (N warnings), its warnings collapsed', () => {
    const [first, , resource] = uportalRepositories();
    const warning = first!.findings.find((f) => f.severity === 'warning')!;
    const md = fleetMarkdown(fleetReportOf([{ ...resource!, findings: [warning, { ...warning, line: 90 }] }]));
    expect(tableRows(md)[0]![1]).toBe('ready (2 warnings)');
    expect(md).toContain('<details>\n<summary>uPortal-Project/resource-server: ready (2 warnings)</summary>\n\n- warning: plugin-version-missing [pom.xml:88](https://github.com/uPortal-Project/resource-server/blob/0123456789abcdef0123456789abcdef01234567/pom.xml#L88): maven-gpg-plugin has no version. Fix: Pin maven-gpg-plugin 3.2.7.\n');
  });

  it('keeps hostile values inside their cells and as text', () => {
    const report = hostileFleet();
    const md = fleetMarkdown(report);
    const rows = tableRows(md);
    expect(rows).toHaveLength(report.repositories.length);
    for (const row of rows) expect(row).toHaveLength(6);
    expect(rows[5]![0]).toBe('[evil-org/&lt;img src=x onerror=alert(1)&gt;\\|\\`x\\`](https://git.example.invalid/evil)');
    expect(md).toContain('v1\\|&lt;i&gt;2&lt;/i&gt; (on Maven Central: no)');
    // A hostile file name is linked as escaped text to its encoded URL.
    expect(md).toContain('[pom.xml ::error file=x::y:9](https://git.example.invalid/evil/blob/0123456789abcdef0123456789abcdef01234567/pom.xml%20%3A%3Aerror%20file%3Dx%3A%3Ay#L9)');
    // The only links are relctl's own; no raw HTML, code span, link or image from a value.
    const own = md.replace('[#&#8203;42 open](https://github.com/uPortal-Project/uportal-parent/pull/42)', '').replace(/^\| \[(.*?)\]\(https:\/\/[^ )]+\) \|/gm, '| $1 |').replace(/ \[((?:\\.|[^\]\\])+)\]\(https:\/\/[^ )]+#L\d+\)/g, ' $1').replace(/<\/?(details|summary)( open)?>/g, '');
    expect(own).not.toMatch(/</);
    expect(own).not.toMatch(/(?<!\\)[[\]`]/);
    expect(md).toContain('!\\[img\\](https://tracker.example.invalid/p.png)');
    // Nobody is mentioned and no issue referenced each time the dashboard is edited.
    expect(md).toContain('@&#8203;octocat #&#8203;1');
    expect(md).not.toMatch(/@\w|(?<!&)#\d/);
    // The hostile pull request's javascript: URL is no link.
    expect(rows[5]![5]).toBe('#&#8203;3 open');
    // One line per value: no line starts other than relctl's own way.
    expect(md.split('\n').filter((l) => l !== '' && !/^(# |## |### |\*\*|\| |- |Findings |\d+\. |<\/?details( open)?>|<summary>)/.test(l))).toEqual([]);
    expect(md).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f\u202e]/);
  });

  it('encodes what Markdown reads in a pull request URL', () => {
    const [first] = uportalRepositories();
    const report = fleetReportOf([{ ...first!, pullRequest: { url: 'https://github.com/o/r/pull/1?x=(a)|b`c d', number: 1, state: 'open' } }]);
    expect(tableRows(fleetMarkdown(report))[0]![5]).toBe('[#&#8203;1 open](https://github.com/o/r/pull/1?x=%28a%29%7Cb%60c%20d)');
  });

  it('is deterministic', () => {
    expect(fleetMarkdown(hostileFleet())).toBe(fleetMarkdown(JSON.parse(JSON.stringify(hostileFleet())) as ReturnType<typeof hostileFleet>));
  });

  it.each([
    ['a|b', 'a\\|b'],
    ['`code`', '\\`code\\`'],
    ['<script>x</script>', '&lt;script&gt;x&lt;/script&gt;'],
    ['[x](http://e)', '\\[x\\](http://e)'],
    ['*b* _i_ ~s~', '\\*b\\* \\_i\\_ \\~s\\~'],
    ['&lt;', '&amp;lt;'],
    ['C:\\path', 'C:\\\\path'],
    ['@team #12 x#y', '@&#8203;team #&#8203;12 x#y'],
    [hostile.name, 'evil-org/&lt;img src=x onerror=alert(1)&gt;\\|\\`x\\`'],
  ])('markdownText(%j) is %j', (value, escaped) => {
    expect(markdownText(value)).toBe(escaped);
  });
});
