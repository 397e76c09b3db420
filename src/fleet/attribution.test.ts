import { describe, expect, it } from 'vitest';
import type { Finding } from '../core/findings.js';
import { attribute, EnvironmentFindings, fixInOf, verdictOf, type AttributionFacts } from './attribution.js';

const facts = (ancestor: string | undefined): AttributionFacts => ({ exits: new Set(['pom.xml:4']), fleetAncestorOf: () => ancestor });
const finding = (code: string, more: Partial<Finding> = {}): Finding => ({ code, severity: 'error', message: `${code} message`, fix: 'fix it', file: 'pom.xml', line: 4, ...more });

describe('fixInOf', () => {
  it('sends an inherited value reported at the <parent> it comes through to the nearest fleet ancestor', () => {
    expect(fixInOf(finding('legacy-staging-host'), facts('acme/parent'))).toBe('acme/parent');
    expect(fixInOf(finding('plugin-version-missing'), facts('acme/parent'))).toBe('acme/parent');
  });

  it('keeps a value written in the repository itself as its own', () => {
    expect(fixInOf(finding('legacy-staging-host', { line: 12 }), facts('acme/parent'))).toBeUndefined();
    expect(fixInOf(finding('distribution-url', { file: 'web/pom.xml' }), facts('acme/parent'))).toBeUndefined();
  });

  it('sends something absent to the fleet ancestor, but never <name>, which no child inherits', () => {
    expect(fixInOf(finding('missing-developers', { line: 9 }), facts('acme/parent'))).toBe('acme/parent');
    expect(fixInOf(finding('missing-pom-metadata', { line: 9, message: 'x lacks <licenses>' }), facts('acme/parent'))).toBe('acme/parent');
    expect(fixInOf(finding('missing-pom-metadata', { line: 9, message: 'x lacks <name>, <licenses>' }), facts('acme/parent'))).toBeUndefined();
  });

  it('keeps everything with no fleet ancestor, and codes no child inherits', () => {
    expect(fixInOf(finding('missing-developers'), facts(undefined))).toBeUndefined();
    expect(fixInOf(finding('not-snapshot'), facts('acme/parent'))).toBeUndefined();
    expect(fixInOf(finding('packaging-mismatch'), facts('acme/parent'))).toBeUndefined();
  });
});

describe('attribute and verdictOf', () => {
  it('moves the machine\'s findings out and decides the verdict from the rest', () => {
    const a = attribute([finding('server-id-mismatch', { subject: 'central' }), finding('legacy-staging-host'), finding('orphan-tag', { severity: 'warning' })], facts('acme/parent'));
    expect(a.environment.map((f) => f.code)).toEqual(['server-id-mismatch']);
    expect(a.findings.map((f) => [f.code, f.fixIn])).toEqual([['legacy-staging-host', 'acme/parent'], ['orphan-tag', undefined]]);
    expect(a.findings.some((f) => 'subject' in f)).toBe(false);
    expect(a.blocking).toEqual(['legacy-staging-host']);
    expect(a.fixIn).toEqual(['acme/parent']);
    expect(verdictOf(a, true)).toBe('waits-on-parent');
    expect(verdictOf(a, false)).toBe('not-published');
  });

  it('is blocked by one error of its own among inherited ones, and ready with warnings only', () => {
    const mixed = attribute([finding('legacy-staging-host'), finding('not-snapshot', { line: 7 })], facts('acme/parent'));
    expect(verdictOf(mixed, true)).toBe('blocked');
    expect(mixed.blocking).toEqual(['legacy-staging-host', 'not-snapshot']);
    expect(verdictOf(attribute([finding('orphan-tag', { severity: 'warning' })], facts(undefined)), true)).toBe('ready');
  });
});

describe('EnvironmentFindings', () => {
  it('lists a machine finding once with every repository it was seen in', () => {
    const env = new EnvironmentFindings();
    env.add('b/two', [finding('server-id-mismatch', { message: 'no server in ~/.m2/settings.xml, nor in b/two/ci/settings.xml' })]);
    env.add('a/one', [finding('server-id-mismatch', { message: 'no server in ~/.m2/settings.xml' })]);
    env.add('a/one', [finding('server-id-mismatch')]);
    env.add('c/three', [finding('server-id-mismatch', { message: 'no server in ~/.m2/settings.xml' })]);
    // The message most repositories gave, not the first one seen: b/two's names a file of its own.
    expect(env.list()).toEqual([{ code: 'server-id-mismatch', severity: 'error', message: 'no server in ~/.m2/settings.xml', fix: 'fix it', repositories: ['a/one', 'b/two', 'c/three'] }]);
  });

  it('on a tie keeps the shortest message, whatever order the repositories came in', () => {
    const lists = [['a/one', 'b/two'], ['b/two', 'a/one']].map((order) => {
      const env = new EnvironmentFindings();
      for (const repo of order) env.add(repo, [finding('server-id-mismatch', { message: repo === 'a/one' ? 'no server, nor in a/one/ci/settings.xml' : 'no server' })]);
      return env.list();
    });
    expect(lists[0]).toEqual(lists[1]);
    expect(lists[0]![0]!.message).toBe('no server');
  });
});

describe('isOlder (a parent move never goes back)', () => {
  it('compares the numbers of two versions in order', async () => {
    const { isOlder } = await import('./fix/parent-bump.js');
    expect(isOlder('258', '259')).toBe(true);
    expect(isOlder('5.0.9', '5.0.10')).toBe(true);
    expect(isOlder('5.0.10', '5.0.9')).toBe(false);
    expect(isOlder('2', '2-SNAPSHOT')).toBe(false);
    expect(isOlder('1.8.15.GA', '1.8.15')).toBe(false);
  });
});
