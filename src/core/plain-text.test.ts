import { describe, expect, it } from 'vitest';
import { plainText } from './plain-text.js';

describe('plainText', () => {
  it('drops escape sequences whole, control bytes, DEL, C1 and bidi overrides; keeps newlines, tabs and Unicode', () => {
    const hostile = 'fix: \x1b[31mred\x1b[0m \x1b]8;;https://evil.example\x07link\x1b]8;;\x07 a\x00b\x07c\x7fd\x85e\x9b2Jf \u202Eevil\u202C \u2066iso\u2069 Grüße 🎉\tend\nline two';
    expect(plainText(hostile)).toBe('fix: red link abcdef evil iso Grüße 🎉\tend\nline two');
  });

  it('turns CRLF, a lone CR and Unicode line separators into newlines; singleLine makes one line', () => {
    expect(plainText('a\r\nb\rc\u2028d')).toBe('a\nb\nc\nd');
    expect(plainText('a\r\nb\tc', { singleLine: true })).toBe('a b c');
  });

  it('an unterminated sequence loses only its introducer, and a long one costs linear time', () => {
    expect(plainText('a\x1b[12;é')).toBe('a12;é');
    const long = `\x1b[${'1;'.repeat(500_000)}`;
    const began = performance.now();
    expect(plainText(long).length).toBe(long.length - 2);
    expect(performance.now() - began).toBeLessThan(2_000);
  });
});
