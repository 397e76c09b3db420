import { describe, expect, it } from 'vitest';
import { toReport, type Finding } from '../../core/findings.js';
import { plainStyle } from '../style.js';
import { findingsGithub, findingsJson, findingsText } from './findings.js';

const c = plainStyle;
const findings: Finding[] = [
  { code: 'legacy-staging-id', severity: 'warning', message: 'id ossrh', file: 'pom.xml', line: 40, module: 'org.ex:parent', fix: 'use central' },
  { code: 'missing-developers', severity: 'error', message: 'no developers', file: 'core/pom.xml', line: 2, module: 'org.ex:core', fix: 'add <developers>' },
];

describe('findings renderers', () => {
  it('groups text by module and ends with a summary line', () => {
    const text = findingsText(toReport(findings), c, 'preflight');
    const lines = text.split('\n');
    expect(lines[0]).toBe('org.ex:core');
    expect(text).toContain('error   missing-developers core/pom.xml:2');
    expect(text).toContain('org.ex:parent');
    expect(lines.at(-1)).toBe('preflight: failed (1 error, 1 warning)');
  });

  it('prints GitHub annotations with escaped data', () => {
    const out = findingsGithub({ ok: false, findings: [{ ...findings[1]!, message: 'a\nb 100%', file: 'x\n::y,z/pom.xml' }] });
    expect(out).toBe('::error file=x%0A%3A%3Ay%2Cz/pom.xml,line=2::missing-developers: a%0Ab 100%25 Fix: add <developers>');
  });

  it('a message or fix quoting a value with a line break is one line in the report (DESIGN §3); so are a file and module in text', () => {
    const report = toReport([{ ...findings[1]!, message: 'The developer Jane\n::error title=X::Y lacks it.', fix: 'Edit a\u2028b', file: 'm\n::e::x/pom.xml', module: 'g\n::e::x:a' }]);
    expect(report.findings[0]).toMatchObject({ message: 'The developer Jane ::error title=X::Y lacks it.', fix: 'Edit a b', file: 'm\n::e::x/pom.xml' });
    const lines = findingsText(report, c, 'preflight').split('\n');
    expect(lines.slice(0, 4)).toEqual(['g ::e::x:a', '  error   missing-developers m ::e::x/pom.xml:2', '          The developer Jane ::error title=X::Y lacks it.', '          fix: Edit a b']);
  });

  it('emits the documented JSON shape in key order', () => {
    const doc = findingsJson(toReport(findings));
    expect(doc.ok).toBe(false);
    expect(Object.keys((doc.findings as object[])[0]!)).toEqual(['code', 'severity', 'message', 'file', 'line', 'module', 'fix']);
  });

  it('passes with warnings only', () => {
    expect(toReport([findings[0]!]).ok).toBe(true);
  });
});

describe('the skipped list', () => {
  const skipped = [
    { check: 'not-snapshot', why: 'version computed by axion-release' },
    { check: 'legacy-staging-host', why: 'no build file for :api', module: ':api' },
    { check: 'not-snapshot', why: 'version computed by axion-release' },
  ];

  it('is said once per check and why, in text before the summary, in json and as GitHub notices', () => {
    const report = toReport([], skipped);
    expect(report.skipped).toHaveLength(2);
    const lines = findingsText(report, c, 'preflight').split('\n');
    expect(lines).toEqual(['skipped: not-snapshot (version computed by axion-release)', 'skipped: legacy-staging-host on :api (no build file for :api)', '', 'preflight: passed (0 errors, 0 warnings)']);
    expect(findingsJson(report).skipped).toEqual([
      { check: 'not-snapshot', why: 'version computed by axion-release' },
      { check: 'legacy-staging-host', why: 'no build file for :api', module: ':api' },
    ]);
    expect(findingsGithub(report).split('\n')).toEqual([
      '::notice::skipped: not-snapshot (version computed by axion-release)',
      '::notice::skipped: legacy-staging-host on :api (no build file for :api)',
    ]);
  });

  it('is an empty array when every check ran, and absent from reports that do not compute it', () => {
    expect(findingsJson(toReport([], [])).skipped).toEqual([]);
    expect('skipped' in findingsJson(toReport([]))).toBe(false);
  });
});
