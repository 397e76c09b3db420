import { describe, expect, it } from 'vitest';
import { Redactor } from './redact.js';

describe('Redactor', () => {
  it('masks both token halves and the base64 form that goes into the Authorization header', () => {
    const r = new Redactor();
    r.addToken('canary-user', 'canary-pass!');
    const b64 = Buffer.from('canary-user:canary-pass!').toString('base64');
    const text = `user canary-user pass canary-pass! header Bearer ${b64} url canary-pass%21`;
    const out = r.redact(text);
    expect(out).not.toContain('canary-user');
    expect(out).not.toContain('canary-pass');
    expect(out).not.toContain(b64);
    expect(out).toBe('user *** pass *** header Bearer *** url ***');
  });

  it('redacts every string of a report before a format escapes it (a secret with " or & would no longer match)', () => {
    const r = new Redactor();
    r.add('pw"with&amp');
    const report = { ok: false, findings: [{ code: 'c', message: 'has pw"with&amp in it', line: 3, file: undefined }], skipped: [] };
    expect(r.redactValues(report)).toEqual({ ok: false, findings: [{ code: 'c', message: 'has *** in it', line: 3, file: undefined }], skipped: [] });
  });

  it('ignores values too short to be secrets', () => {
    const r = new Redactor();
    r.add('ab', undefined);
    expect(r.redact('ab cd')).toBe('ab cd');
  });
});

describe('a staging repository key', () => {
  it('prints its token user as <token user>, not as a bare *** that looks like a fault, and reads back as input', async () => {
    const { Redactor } = await import('./redact.js');
    const { parseRepositoryKey } = await import('./identifiers.js');
    const { withUser } = await import('../portal/urls.js');
    const r = new Redactor();
    r.addToken('tok-user-4f2a', 'tok-secret-9c1d');
    const shown = r.redact('No repository found for tok-user-4f2a/127.0.0.1/org.example--default-repository; password tok-secret-9c1d');
    expect(shown).toBe('No repository found for <token user>/127.0.0.1/org.example--default-repository; password ***');
    const parsed = parseRepositoryKey('<token user>/127.0.0.1/org.example--default-repository');
    expect(parsed.ok).toBe(true);
    if (parsed.ok) expect(withUser(parsed.key, 'tok-user-4f2a').user).toBe('tok-user-4f2a');
  });
});
