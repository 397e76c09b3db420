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

  it('ignores values too short to be secrets', () => {
    const r = new Redactor();
    r.add('ab', undefined);
    expect(r.redact('ab cd')).toBe('ab cd');
  });
});
