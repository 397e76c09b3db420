import { describe, expect, it } from 'vitest';
import { deploymentIdProblem, groupIdProblem, parseRepositoryKey } from './identifiers.js';

describe('identifiers', () => {
  it.each(['org.example', 'io.github.jane-doe', 'com.example_x.a1', 'a'])('%s is a Maven group id', (g) => {
    expect(groupIdProblem(g)).toBeUndefined();
  });
  it.each(['bad group!', 'org..example', '.org', 'org.', '', 'org/example', 'org.example;x'])('%j is not', (g) => {
    expect(groupIdProblem(g)).toMatch(/not a Maven group id/);
  });

  it('reads the key shape, the masked user, IPv6 and one level of %-encoding', () => {
    expect(parseRepositoryKey('tok/203.0.113.7/org.example--default-repository')).toEqual({
      ok: true,
      key: { user: 'tok', address: '203.0.113.7', namespace: 'org.example' },
    });
    expect(parseRepositoryKey('***/2001:db8::1/io.github.x--default-repository')).toMatchObject({ ok: true, key: { user: '***', address: '2001:db8::1' } });
    expect(parseRepositoryKey('tok%2F1.2.3.4%2Forg.example--default-repository')).toMatchObject({ ok: true, key: { user: 'tok' } });
  });

  it.each([
    ['u/1.2.3.4/../../../../sandbox/reset', '"." or ".."'],
    ['u/1.2.3.4/%2e%2e/x--default-repository', '"." or ".."'],
    ['u//org.example--default-repository', 'empty segment'],
    ['u/1.2.3.4/a/org.example--default-repository', '4 segments'],
    ['u/host.example/org.example--default-repository', 'not an IP address'],
    ['u/1.2.3.4/org.example', 'does not end in --default-repository'],
    ['u/1.2.3.4/bad group--default-repository', 'not a Maven group id'],
    ['u x/1.2.3.4/org.example--default-repository', 'user segment'],
    ['u/1.2.3.4/org.example--default-repository%zz', 'malformed'],
  ])('refuses %j (%s)', (key, why) => {
    const r = parseRepositoryKey(key);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.problem).toContain(why);
  });

  it('deployment ids: id-like text only', () => {
    expect(deploymentIdProblem('6c1f0c3e-8f43-4b8e-9d59-0f6d3f3f9e11')).toBeUndefined();
    for (const bad of ['..', '../x', 'a/b', 'a b', '', '-x', 'a?b']) expect(deploymentIdProblem(bad), bad).toBeDefined();
  });
});
