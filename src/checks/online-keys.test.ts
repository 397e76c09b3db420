import { describe, expect, it } from 'vitest';
import { keyFindings } from './online-keys.js';
import { portalFindings } from './online-portal.js';
import type { KeyCheckFacts } from '../keys/online-types.js';

const fpr = 'A'.repeat(40);
function facts(over: Partial<KeyCheckFacts> = {}): KeyCheckFacts {
  return {
    fingerprint: fpr,
    source: '--fingerprint',
    primary: 'found',
    secondary: 'found',
    emails: [{ address: 'a@x', outcome: 'found' }],
    served: { from: 'primary', hasUserIds: true, expiresAt: null, signingExpiresAt: null },
    primaryUrl: 'https://keys.example',
    uploadFormUrl: 'https://keys.example/upload',
    secondaryUrl: 'https://hkp.example',
    checkedAt: '2026-01-01T00:00:00.000Z',
    ...over,
  };
}
const codes = (k: KeyCheckFacts): string[] => keyFindings(k).map((f) => `${f.code}:${f.severity}`);

describe('keyFindings', () => {
  it('is clean for a published, confirmed, unexpiring key', () => {
    expect(codes(facts())).toEqual([]);
  });
  it('tells not-published from only-on-the-secondary', () => {
    expect(codes(facts({ primary: 'not-found', secondary: 'not-found' }))).toEqual(['key-not-published:error']);
    expect(codes(facts({ primary: 'not-found' }))).toEqual(['key-only-secondary:error']);
  });
  it('warns key-unconfirmed when an address lookup fails or the served key has no user ids', () => {
    expect(codes(facts({ emails: [{ address: 'a@x', outcome: 'not-found' }] }))).toEqual(['key-unconfirmed:warning']);
    expect(codes(facts({ served: { from: 'primary', hasUserIds: false, expiresAt: null, signingExpiresAt: null } }))).toEqual(['key-unconfirmed:warning']);
  });
  it('judges expiry by the sooner of primary and signing subkey: expired, within 30 days, or fine', () => {
    const served = (d: string | null, s: string | null) => ({ from: 'primary' as const, hasUserIds: true, expiresAt: d, signingExpiresAt: s });
    expect(codes(facts({ served: served('2025-12-31T00:00:00Z', null) }))).toEqual(['key-expired:error']);
    expect(codes(facts({ served: served(null, '2026-01-20T00:00:00Z') }))).toEqual(['key-expiring:warning']);
    expect(codes(facts({ served: served('2026-03-01T00:00:00Z', null) }))).toEqual([]);
  });
  it('reports key-mismatch for a configured signing key id that is not this key', () => {
    expect(codes(facts({ configuredKeyId: { id: 'DEADBEEF', source: 'gradle.properties', matches: false } }))).toEqual(['key-mismatch:error']);
  });
});

describe('portalFindings', () => {
  const base = { portalUrl: 'https://portal.example', missingFix: 'set it', tokenFix: 'make one' };
  it('maps credentials, rejection and a blocking deployment', () => {
    expect(portalFindings({ ...base, credentials: 'missing' }).map((f) => f.code)).toEqual(['missing-credentials']);
    expect(portalFindings({ ...base, credentials: 'present', auth: 'rejected' }).map((f) => f.code)).toEqual(['token-rejected']);
    const blocked = portalFindings({ ...base, credentials: 'present', auth: 'accepted', groupId: 'g', blockedBy: { deploymentId: 'd1', repositoryKey: 'k' } });
    expect(blocked.map((f) => f.code)).toEqual(['namespace-blocked']);
    expect(blocked[0]!.fix).toContain('relctl drop --deployment d1');
  });
});
