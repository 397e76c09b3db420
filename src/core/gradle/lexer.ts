/**
 * A forgiving lexer for Gradle scripts, Groovy and Kotlin DSL alike. It is not a parser for
 * either language: it only needs to tell comments from strings from code so that the pattern
 * matchers in this folder never mistake `// url 'https://oss.sonatype.org'` for a repository,
 * and keep the line of every token. It never throws: any byte it does not understand becomes
 * a one-character punctuation token, an unterminated string or comment ends at the line or file end.
 */
export type TokenKind = 'ident' | 'string' | 'number' | 'punct';

export interface Token {
  kind: TokenKind;
  /** Identifier name, string value (escapes decoded, interpolations left as written), or the character. */
  text: string;
  /** 1-based line where the token starts. */
  line: number;
  /** First token on its line: statements in both DSLs end at a line break. */
  nl: boolean;
  /** Strings only: the value contains a `$` interpolation, so it is not a constant. */
  dynamic?: boolean;
  /**
   * Offsets into the text tokenized (`text.slice(start, end)` is the token as written, quotes
   * included): where `preflight --fix` edits a literal. Set by tokenize; absent on tokens made up elsewhere.
   */
  start?: number;
  end?: number;
}

const identStart = /[A-Za-z_$]/;
const identPart = /[A-Za-z0-9_$]/;
const simpleEscapes: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '0': '\0' };

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  const n = text.length;
  let i = 0;
  let line = 1;
  let nl = true;
  let from = 0; // where the token being read starts
  const push = (kind: TokenKind, value: string, startLine: number, dynamic?: boolean): void => {
    const t: Token = { kind, text: value, line: startLine, nl, start: from, end: i };
    if (dynamic === true) t.dynamic = true;
    tokens.push(t);
    nl = false;
  };
  const newline = (): void => {
    line++;
    nl = true;
  };
  if (text.startsWith('#!')) while (i < n && text[i] !== '\n') i++;

  while (i < n) {
    const ch = text[i]!;
    from = i;
    if (ch === '\n' || (ch === '\r' && text[i + 1] !== '\n')) {
      newline();
      i++;
      continue;
    }
    if (ch <= ' ' || ch === '\u00a0' || ch === '\ufeff') {
      i++;
      continue;
    }
    if (ch === '/' && text[i + 1] === '/') {
      while (i < n && text[i] !== '\n' && text[i] !== '\r') i++;
      continue;
    }
    if (ch === '/' && text[i + 1] === '*') {
      i += 2;
      while (i < n && !(text[i] === '*' && text[i + 1] === '/')) {
        if (text[i] === '\n' || (text[i] === '\r' && text[i + 1] !== '\n')) newline();
        i++;
      }
      i += 2;
      continue;
    }
    if (ch === '"' || ch === "'") {
      const startLine = line;
      const triple = text.startsWith(ch.repeat(3), i);
      const quote = triple ? ch.repeat(3) : ch;
      i += quote.length;
      let value = '';
      let dynamic = false;
      let depth = 0; // inside ${ ... } of a GString / Kotlin template
      while (i < n) {
        const c = text[i]!;
        if (depth === 0 && text.startsWith(quote, i)) {
          i += quote.length;
          break;
        }
        if (!triple && (c === '\n' || c === '\r') && depth === 0) break; // unterminated: recover at the line end
        if (c === '\\') {
          const next = text[i + 1];
          if (next === undefined) {
            i++;
            break;
          }
          if (next === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
            value += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16));
            i += 6;
            continue;
          }
          if (next === '\n') newline();
          value += simpleEscapes[next] ?? next;
          i += 2;
          continue;
        }
        if (c === '$' && ch === '"') dynamic = true;
        if (c === '$' && text[i + 1] === '{' && ch === '"') {
          depth++;
          value += '${';
          i += 2;
          continue;
        }
        if (depth > 0 && c === '}') depth--;
        else if (depth > 0 && c === '{') depth++;
        if (c === '\n' || (c === '\r' && text[i + 1] !== '\n')) newline();
        value += c;
        i++;
      }
      push('string', value, startLine, dynamic);
      continue;
    }
    if (ch === '`') {
      // Kotlin backtick identifier: `maven-publish`
      const end = text.indexOf('`', i + 1);
      const stop = end === -1 ? n : end;
      const lineEnd = text.slice(i + 1, stop).search(/[\r\n]/);
      if (end === -1 || lineEnd !== -1) {
        i++;
        push('punct', '`', line);
        continue;
      }
      i = end + 1;
      push('ident', text.slice(from + 1, end), line);
      continue;
    }
    if (identStart.test(ch)) {
      let j = i + 1;
      while (j < n && identPart.test(text[j]!)) j++;
      i = j;
      push('ident', text.slice(from, j), line);
      continue;
    }
    if (ch >= '0' && ch <= '9') {
      let j = i + 1;
      while (j < n && /[0-9A-Za-z_.]/.test(text[j]!)) j++;
      i = j;
      push('number', text.slice(from, j), line);
      continue;
    }
    if (ch === '/' && slashyMayStart(tokens[tokens.length - 1])) {
      const end = slashyEnd(text, i);
      if (end !== undefined) {
        const value = text.slice(i + 1, end).replace(/\\\//g, '/');
        i = end + 1;
        push('string', value, line, value.includes('$'));
        continue;
      }
    }
    i++;
    push('punct', ch, line);
  }
  return tokens;
}

// A Groovy slashy string (`/^v(\d+)/`, often holding `//` or quotes) starts where an operand is
// expected; after a name, a number or a closing bracket the slash is a division.
const slashyAfter = new Set(['(', ',', '=', '~', ':', '[', '!', '?', '{', ';', '&', '|', '+']);

function slashyMayStart(prev: Token | undefined): boolean {
  if (prev === undefined) return false;
  if (prev.kind === 'punct') return slashyAfter.has(prev.text);
  return prev.kind === 'ident' && prev.text === 'return';
}

// Slashy strings in build scripts are short and on one line; this bound keeps hostile input linear.
const maxSlashy = 500;

/** Index of the closing `/` on the same line, or undefined when there is none (then it was not one). */
function slashyEnd(text: string, start: number): number | undefined {
  const stop = Math.min(text.length, start + maxSlashy);
  for (let j = start + 1; j < stop; j++) {
    const c = text[j]!;
    if (c === '\n' || c === '\r') return undefined;
    if (c === '\\' && text[j + 1] === '/') {
      j++;
      continue;
    }
    if (c === '/') return j === start + 1 ? undefined : j;
  }
  return undefined;
}
