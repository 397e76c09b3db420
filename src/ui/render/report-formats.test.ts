import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { toReport, type CheckReport, type Finding } from '../../core/findings.js';
import { findingTitle, findingRuleName } from '../../core/finding-titles.js';
import { findingsGitlab } from './findings-gitlab.js';
import { attr, findingsJunit, text } from './findings-junit.js';
import { findingsSarif } from './findings-sarif.js';
import { withoutLineNumbers, type ReportContext } from './report-context.js';

/** A project in the `java/` folder of a repository at /work/repo. */
const ctx: ReportContext = { version: '1.2.3', projectRoot: '/work/repo/java', repoRoot: '/work/repo', descriptor: 'pom.xml' };

const findings: Finding[] = [
  { code: 'missing-developers', severity: 'error', message: 'org.ex:core declares no developers (core/pom.xml:2).', file: 'core/pom.xml', line: 2, module: 'org.ex:core', fix: 'Add <developers>.' },
  { code: 'legacy-staging-id', severity: 'warning', message: 'id ossrh', file: 'pom.xml', line: 40, module: 'org.ex:parent', fix: 'Use central.' },
  { code: 'dirty-worktree', severity: 'error', message: 'Uncommitted: a.txt', fix: 'Commit or stash.' },
];
const report = toReport(findings);

type Sarif = { runs: [{ tool: { driver: { rules: { id: string; defaultConfiguration: { level: string }; properties: { tags: string[] } }[] } }; results: SarifResult[]; invocations: [{ executionSuccessful: boolean; toolExecutionNotifications?: { level: string; message: { text: string } }[] }] }] };
type SarifResult = { ruleId: string; ruleIndex: number; level: string; partialFingerprints: Record<string, string>; locations?: { physicalLocation: { artifactLocation: { uri: string; uriBaseId?: string }; region?: { startLine: number } } }[] };

function sarif(r: CheckReport, c: ReportContext = ctx, options = {}): Sarif {
  return findingsSarif(r, c, options) as unknown as Sarif;
}

describe('SARIF', () => {
  it('has one rule per code, with the level from the severity and the group as a tag; results point at their rule', () => {
    const run = sarif(report).runs[0];
    expect(run.tool.driver.rules.map((r) => r.id)).toEqual(['dirty-worktree', 'legacy-staging-id', 'missing-developers']);
    expect(run.tool.driver.rules.map((r) => r.defaultConfiguration.level)).toEqual(['error', 'warning', 'error']);
    expect(run.tool.driver.rules[0]!.properties.tags).toContain('repository');
    for (const r of run.results) expect(run.tool.driver.rules[r.ruleIndex]!.id).toBe(r.ruleId);
  });

  it('gives files relative to the repository root, not to --cwd', () => {
    const uris = sarif(report).runs[0].results.map((r) => r.locations?.[0]?.physicalLocation.artifactLocation);
    expect(uris).toContainEqual({ uri: 'java/core/pom.xml', uriBaseId: '%SRCROOT%' });
    expect(uris).toContainEqual({ uri: 'java/pom.xml', uriBaseId: '%SRCROOT%' });
  });

  it('puts a finding without a file on the top-level descriptor, line 1; with no descriptor it has no location', () => {
    const dirty = sarif(report).runs[0].results.find((r) => r.ruleId === 'dirty-worktree')!;
    expect(dirty.locations?.[0]?.physicalLocation).toEqual({ artifactLocation: { uri: 'java/pom.xml', uriBaseId: '%SRCROOT%' }, region: { startLine: 1 } });
    const { descriptor: _, ...bare } = ctx;
    expect(sarif(report, bare).runs[0].results.find((r) => r.ruleId === 'dirty-worktree')!.locations).toBeUndefined();
  });

  it('encodes paths as URI references, and a file outside the repository as a file URI', () => {
    const odd = toReport([{ ...findings[0]!, file: 'my lib/pom#1.xml' }, { ...findings[0]!, file: '../../elsewhere/x.jar', message: 'other' }]);
    const uris = sarif(odd).runs[0].results.map((r) => r.locations![0]!.physicalLocation.artifactLocation);
    expect(uris).toContainEqual({ uri: 'java/my%20lib/pom%231.xml', uriBaseId: '%SRCROOT%' });
    expect(uris).toContainEqual({ uri: 'file:///work/elsewhere/x.jar' });
  });

  it('keeps fingerprints when lines move, changes them when the finding changes, and tells equal findings apart', () => {
    const print = (r: CheckReport) => sarif(r).runs[0].results.map((x) => x.partialFingerprints['relctlFindingHash/v1']);
    const before = print(toReport([findings[0]!]));
    const moved = print(toReport([{ ...findings[0]!, line: 7, message: 'org.ex:core declares no developers (core/pom.xml:7).' }]));
    expect(moved).toEqual(before);
    expect(print(toReport([{ ...findings[0]!, module: 'org.ex:other' }]))).not.toEqual(before);
    const twice = print(toReport([findings[0]!, findings[0]!]));
    expect(new Set(twice).size).toBe(2);
    expect(twice[0]).toBe(before[0]);
  });

  it('lists skipped checks as notes and a run that could not finish as unsuccessful', () => {
    const inv = sarif({ ...report, skipped: [{ check: 'not-snapshot', why: 'version computed by axion-release' }] }, ctx, { executionSuccessful: false, failure: 'keys.openpgp.org did not answer' }).runs[0].invocations[0];
    expect(inv.executionSuccessful).toBe(false);
    expect(inv.toolExecutionNotifications).toEqual([
      expect.objectContaining({ level: 'note', message: { text: 'Not checked: not-snapshot: version computed by axion-release.' } }),
      expect.objectContaining({ level: 'error', message: { text: 'keys.openpgp.org did not answer.' } }),
    ]);
    expect(sarif(report).runs[0].invocations[0]).toEqual({ executionSuccessful: true });
  });
});

describe('GitLab code quality', () => {
  it('maps severities, paths relative to the repository root, a line for every issue, unique fingerprints', () => {
    const issues = findingsGitlab(toReport([...findings, findings[0]!]), ctx) as { severity: string; check_name: string; fingerprint: string; location: { path: string; lines: { begin: number } } }[];
    expect(issues.map((i) => [i.check_name, i.severity, i.location.path, i.location.lines.begin])).toEqual([
      ['dirty-worktree', 'critical', 'java/pom.xml', 1],
      ['missing-developers', 'critical', 'java/core/pom.xml', 2],
      ['missing-developers', 'critical', 'java/core/pom.xml', 2],
      ['legacy-staging-id', 'minor', 'java/pom.xml', 40],
    ]);
    expect(new Set(issues.map((i) => i.fingerprint)).size).toBe(4);
  });
});

describe('JUnit XML', () => {
  const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => ['testsuite', 'testcase'].includes(name) });
  type Case = { classname: string; name: string; failure?: { type: string; message: string; '#text': string }; 'system-out'?: string; skipped?: { message: string } };
  function parse(xml: string): { suites: { name: string; tests: string; failures: string; testcase: Case[] }[] } {
    expect(XMLValidator.validate(xml)).toBe(true);
    const doc = parser.parse(xml) as { testsuites: { testsuite: { name: string; tests: string; failures: string; testcase: Case[] }[] } };
    return { suites: doc.testsuites.testsuite };
  }

  it('has a test case per check and module: errors fail it, warnings go to system-out, checks without findings pass', () => {
    const plan = [
      { name: 'descriptors', codes: ['missing-developers', 'legacy-staging-id', 'missing-pom-metadata'] },
      { name: 'repository', codes: ['dirty-worktree'] },
    ];
    const { suites } = parse(findingsJunit(report, 'relctl preflight', plan));
    const descriptors = suites.find((s) => s.name === 'descriptors')!;
    expect(descriptors.testcase.map((t) => `${t.classname} ${t.name}`)).toEqual(['org.ex:core missing-developers', 'org.ex:parent legacy-staging-id', '(project) missing-pom-metadata']);
    expect(descriptors.failures).toBe('1');
    const [dev, legacy, meta] = descriptors.testcase;
    expect(dev!.failure).toMatchObject({ type: 'missing-developers', message: 'org.ex:core declares no developers (core/pom.xml:2).' });
    expect(dev!.failure!['#text']).toContain('fix: Add <developers>.');
    expect(legacy!.failure).toBeUndefined();
    expect(legacy!['system-out']).toContain('warning: pom.xml:40: id ossrh');
    expect(meta).toEqual({ classname: '(project)', name: 'missing-pom-metadata' });
  });

  it('lists skipped checks as skipped test cases, and places codes the plan lacks in their group', () => {
    const { suites } = parse(findingsJunit({ ...report, skipped: [{ check: 'not-snapshot', why: 'version computed by axion-release' }] }, 'relctl preflight', []));
    const repo = suites.find((s) => s.name === 'repository')!;
    expect(repo.testcase.find((t) => t.name === 'not-snapshot')!.skipped).toEqual({ message: 'version computed by axion-release' });
    expect(repo.testcase.find((t) => t.name === 'dirty-worktree')!.failure).toBeDefined();
  });

  it('reports a run that could not ask a service as an errored test case', () => {
    const xml = findingsJunit(report, 'relctl preflight', [], 'keys.openpgp.org did not answer\nretry later');
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml).toContain('errors="1"');
    expect(xml).toContain('<error type="service-unreachable" message="keys.openpgp.org did not answer">keys.openpgp.org did not answer\nretry later</error>');
  });

  it('strips characters XML 1.0 cannot carry and escapes the rest', () => {
    const nasty = 'a\u0000b\u0001c\u001b[31m\uFFFE\uD800 <x> & "q" ]]> \u{1F600}';
    expect(text(nasty)).toBe('abc[31m &lt;x&gt; &amp; "q" ]]&gt; \u{1F600}');
    expect(attr('a\nb\t"c"')).toBe('"a&#10;b&#9;&quot;c&quot;"');
    const xml = findingsJunit(toReport([{ ...findings[0]!, message: nasty, module: `m${nasty}` }]), 'relctl preflight', []);
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/);
  });
});

describe('finding titles', () => {
  it('has a title for known codes and reads an unknown code as words', () => {
    expect(findingTitle('missing-developers')).toBe('The POM declares no developers');
    expect(findingTitle('brand-new-code')).toBe('Brand new code');
    expect(findingRuleName('missing-pom-metadata')).toBe('MissingPomMetadata');
  });

  it('drops line numbers, not other numbers, from messages', () => {
    expect(withoutLineNumbers('parent org.ex:p:43 at pom.xml:12 (line 4), version 2.0')).toBe('parent org.ex:p:43 at pom.xml (line), version 2.0');
  });
});
