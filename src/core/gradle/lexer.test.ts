import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tokenize } from './lexer.js';

describe('tokenize', () => {
  it('drops comments, keeps strings (with comment markers inside) and their lines', () => {
    const tokens = tokenize(`a // b 'c'\n/* d\n e */ "x//y/*z*/" '''multi\nline''' """k"""\n\`back-tick\` 12`);
    expect(tokens.map((t) => [t.kind, t.text, t.line])).toEqual([
      ['ident', 'a', 1],
      ['string', 'x//y/*z*/', 3],
      ['string', 'multi\nline', 3],
      ['string', 'k', 4],
      ['ident', 'back-tick', 5],
      ['number', '12', 5],
    ]);
  });

  it('marks interpolated double-quoted strings as dynamic, not single-quoted ones', () => {
    const [a, b] = tokenize(`"\${rootDir}/x" '$rootDir'`);
    expect(a).toMatchObject({ text: '${rootDir}/x', dynamic: true });
    expect(b!.dynamic).toBeUndefined();
  });

  it('decodes escapes and survives an unterminated string or comment', () => {
    expect(tokenize(`'a\\'b\\u0041'`)[0]!.text).toBe("a'bA");
    expect(tokenize(`'open\nnext`).map((t) => t.text)).toEqual(['open', 'next']);
    expect(tokenize('x /* never closed')).toHaveLength(1);
  });

  it('reads Groovy slashy strings, so a // inside one is no comment, and keeps division a division', () => {
    const tokens = tokenize(`if (url ==~ /^https?:\\/\\/.+/ || url =~ /^http:\\/\\//) {\n  x = a / b / c\n}`);
    expect(tokens.filter((t) => t.kind === 'string').map((t) => t.text)).toEqual(['^https?://.+', '^http://']);
    expect(tokens.filter((t) => t.text === '{' || t.text === '}')).toHaveLength(2);
    expect(tokens.filter((t) => t.text === '/').map((t) => t.line)).toEqual([2, 2]);
    const unquoted = tokenize(`def v = version.replaceAll(/-SNAPSHOT$/, '')\nurl 'https://repo.example.org'`);
    expect(unquoted.filter((t) => t.kind === 'string').map((t) => [t.text, t.line])).toEqual([['-SNAPSHOT$', 1], ['', 1], ['https://repo.example.org', 2]]);
  });

  it('never throws, and lines never go backwards or past the last line', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), (text) => {
        const lines = text.split(/\r\n|\r|\n/).length;
        let last = 1;
        for (const t of tokenize(text)) {
          expect(t.line).toBeGreaterThanOrEqual(last);
          expect(t.line).toBeLessThanOrEqual(lines);
          last = t.line;
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('token offsets (where preflight --fix edits a literal)', () => {
  it('slices every token as written, quotes included, across CRLF lines and comments', () => {
    const text = 'url = uri("https://s01.oss.sonatype.org/x/")\r\n// c\r\nurl \'a\\\'b\' `war` 12 /re/\r\n';
    const tokens = tokenize(text);
    expect(tokens.map((t) => text.slice(t.start, t.end))).toEqual(['url', '=', 'uri', '(', '"https://s01.oss.sonatype.org/x/"', ')', 'url', "'a\\'b'", '`war`', '12', '/', 're', '/']);
  });
});
