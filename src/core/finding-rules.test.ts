import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { configJsonSchema } from './config/settings.js';
import { validateConfigFile } from './config/resolve.js';
import { applyFindingRules, controlReport, parseMaxWarnings, validateFindingRules } from './finding-rules.js';
import { toReport, type Finding } from './findings.js';

const finding = (code: string, severity: 'error' | 'warning'): Finding => ({ code, severity, message: code, fix: 'fix it' });

describe('finding rules', () => {
  it('accepts known codes at off, warning or error, and names each bad code or level', () => {
    expect(validateFindingRules({ 'missing-developers': 'off', 'key-expiring': 'error' })).toEqual({ problems: [], value: { 'missing-developers': 'off', 'key-expiring': 'error' } });
    const bad = validateFindingRules({ 'no-such-code': 'off', 'missing-developers': 'warn', 'bad-checksum': 2 });
    expect(bad.value).toBeUndefined();
    expect(bad.problems).toHaveLength(3);
    expect(bad.problems.join('\n')).toMatch(/"no-such-code"[\s\S]*"missing-developers" to "warn"[\s\S]*"bad-checksum" to 2/);
    expect(validateFindingRules(['missing-developers']).problems).toHaveLength(1);
    expect(validateConfigFile({ rules: { 'x-y': 'off' } }).problems[0]!.key).toBe('rules');
  });

  it('drops off codes and sets the chosen severity; ok follows the errors left', () => {
    const report = toReport([finding('missing-developers', 'error'), finding('plugin-version-missing', 'warning'), finding('published-repositories', 'warning')]);
    const r = applyFindingRules(report, { 'missing-developers': 'warning', 'published-repositories': 'off' });
    expect(r.ok).toBe(true);
    expect(r.findings.map((f) => `${f.code} ${f.severity}`)).toEqual(['missing-developers warning', 'plugin-version-missing warning']);
    expect(applyFindingRules(report, { 'plugin-version-missing': 'error', 'missing-developers': 'off' }).ok).toBe(false);
  });

  it('counts warnings for --max-warnings before --quiet hides them', () => {
    const report = toReport([finding('plugin-version-missing', 'warning'), finding('published-repositories', 'warning')]);
    expect(controlReport(report, { maxWarnings: 2 }).report.ok).toBe(true);
    const over = controlReport(report, { maxWarnings: 1, quiet: true });
    expect(over.report.ok).toBe(false);
    expect(over.report.findings).toEqual([]);
    expect(over.tooManyWarnings).toBe('2 warnings found, more than --max-warnings 1 allows.');
    expect([parseMaxWarnings('0'), parseMaxWarnings('12'), parseMaxWarnings('-1'), parseMaxWarnings('1.5'), parseMaxWarnings('')]).toEqual([0, 12, undefined, undefined, undefined]);
  });

  it('ships a JSON Schema that accepts the same rules and refuses the same mistakes', () => {
    const validate = new Ajv2020({ strict: false, logger: false }).compile(configJsonSchema());
    expect(validate({ rules: { 'missing-developers': 'off' } })).toBe(true);
    expect(validate({ rules: { 'missing-developer': 'off' } })).toBe(false);
    expect(validate({ rules: { 'missing-developers': 'warn' } })).toBe(false);
  });
});
