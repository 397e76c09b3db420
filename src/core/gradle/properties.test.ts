import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseProperties } from './properties.js';

const values = (text: string): Record<string, string> =>
  Object.fromEntries([...parseProperties(text)].map(([k, e]) => [k, e.value]));

describe('parseProperties (java.util.Properties format)', () => {
  it('reads =, : and whitespace separators, comments and blank lines', () => {
    const text = '# comment\n! also a comment\n\na=1\nb : 2\n  c   3\nd=\ne\nversion=1.0.0-SNAPSHOT\n';
    expect(values(text)).toEqual({ a: '1', b: '2', c: '3', d: '', e: '', version: '1.0.0-SNAPSHOT' });
    expect(parseProperties(text).get('version')?.line).toBe(9);
  });

  it('joins continuation lines and decodes escapes', () => {
    const text = 'list=one,\\\n    two,\\\r\n  three\nkey\\ with\\=odd\\:chars=v\\u0041\\t!\npath=C:\\\\keys\\\\ring.gpg\nlast=x\\\\\nnext=y';
    expect(values(text)).toEqual({
      list: 'one,two,three',
      'key with=odd:chars': 'vA\t!',
      path: 'C:\\keys\\ring.gpg',
      last: 'x\\',
      next: 'y',
    });
    expect(parseProperties(text).get('path')?.line).toBe(5);
  });

  it('lets later duplicates win and tolerates a malformed \\u escape and a dangling backslash', () => {
    expect(values('a=1\na=2\nb=\\uZZ\nc=end\\')).toEqual({ a: '2', b: 'uZZ', c: 'end' });
  });

  it('never throws, and every key it returns was written in the file', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constantFrom('=', ':', '\\', '\n', '\r\n', '#', '!', ' ', '\\u', 'k', 'v'), fc.string()), { maxLength: 50 }), (parts) => {
        for (const [, e] of parseProperties(parts.join(''))) expect(e.line).toBeGreaterThan(0);
      }),
      { numRuns: 400 },
    );
  });

  it('joins a very long continuation without slowing to a crawl (no hang)', () => {
    expect(parseProperties('a=' + 'x\\\n'.repeat(200_000) + 'end').get('a')?.value).toHaveLength(200_003);
  });

  it('round-trips simple key=value pairs', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.stringMatching(/^[a-zA-Z][a-zA-Z0-9._-]{0,12}$/), fc.stringMatching(/^[a-zA-Z0-9./:@-]{0,20}$/)), (d) => {
        const text = Object.entries(d).map(([k, v]) => `${k}=${v}`).join('\n');
        expect(values(text)).toEqual(d);
      }),
    );
  });
});
