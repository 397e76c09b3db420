/**
 * Java properties format (java.util.Properties#load), which gradle.properties uses:
 * `key=value`, `key: value`, `key value`, `#`/`!` comments, a trailing odd backslash continues
 * the line, `\t \n \r \f \uXXXX` escapes, any other escaped character stands for itself.
 */
export interface PropertyEntry {
  value: string;
  /** 1-based line where the entry starts. */
  line: number;
}

const escapes: Record<string, string> = { t: '\t', n: '\n', r: '\r', f: '\f' };

function unescape(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c !== '\\' || i === s.length - 1) {
      out += c;
      continue;
    }
    const next = s[++i]!;
    if (next === 'u') {
      const hex = s.slice(i + 1, i + 5);
      if (/^[0-9a-fA-F]{4}$/.test(hex)) {
        out += String.fromCharCode(parseInt(hex, 16));
        i += 4;
        continue;
      }
      // Java throws on a malformed \u; a preflight tool keeps going with the literal text.
      out += 'u';
      continue;
    }
    out += escapes[next] ?? next;
  }
  return out;
}

function endsWithContinuation(line: string): boolean {
  let n = 0;
  for (let i = line.length - 1; i >= 0 && line[i] === '\\'; i--) n++;
  return n % 2 === 1;
}

const isWhite = (c: string | undefined): boolean => c === ' ' || c === '\t' || c === '\f';

/** Later duplicates win, as in Java. Never throws. */
export function parseProperties(text: string): Map<string, PropertyEntry> {
  const result = new Map<string, PropertyEntry>();
  const lines = text.split(/\r\n|\r|\n/);
  for (let i = 0; i < lines.length; i++) {
    const startLine = i + 1;
    let logical = lines[i]!.replace(/^[ \t\f]+/, '');
    if (logical === '' || logical.startsWith('#') || logical.startsWith('!')) continue;
    // Parts joined once at the end: repeated concatenation would be quadratic on long continuations.
    const parts: string[] = [];
    while (endsWithContinuation(logical) && i + 1 < lines.length) {
      parts.push(logical.slice(0, -1));
      logical = lines[++i]!.replace(/^[ \t\f]+/, '');
    }
    if (endsWithContinuation(logical)) logical = logical.slice(0, -1);
    parts.push(logical);
    logical = parts.join('');
    let k = 0;
    while (k < logical.length) {
      const c = logical[k]!;
      if (c === '\\') {
        k += 2;
        continue;
      }
      if (c === '=' || c === ':' || isWhite(c)) break;
      k++;
    }
    const rawKey = logical.slice(0, Math.min(k, logical.length));
    let v = k;
    while (isWhite(logical[v])) v++;
    if (logical[v] === '=' || logical[v] === ':') v++;
    while (isWhite(logical[v])) v++;
    result.set(unescape(rawKey), { value: unescape(logical.slice(v)), line: startLine });
  }
  return result;
}
