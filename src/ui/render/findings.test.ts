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
    const out = findingsGithub(toReport([{ ...findings[1]!, message: 'a\nb 100%' }]));
    expect(out).toBe('::error file=core/pom.xml,line=2::missing-developers: a%0Ab 100%25 Fix: add <developers>');
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
