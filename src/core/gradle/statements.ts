import type { Token } from './lexer.js';

/** A `{ ... }` block: `publishing {`, `maven {`, `project(':web') {`; name '' for a bare closure. */
export interface Block {
  name: string;
  /** First string argument of the opener, e.g. `:web` in `project(':web') {`. */
  arg?: string;
  line: number;
}

export interface Statement {
  tokens: Token[];
  /** Enclosing blocks, outermost first. */
  path: Block[];
  line: number;
}

// A line that starts with one of these continues the previous statement (`?:`, `.method()`,
// `else`); a line that ends with one of the operators below continues on the next line.
const continuationStarts = new Set(['.', '?', ':', 'else', '+', '|', '&']);
const continuationEnds = new Set(['=', '(', ',', '+', '?', ':', '.', '|', '&', '[']);

// Real scripts nest a dozen blocks deep; past this, braces are only counted (no path copies
// that grow with the input, which would make hostile input quadratic).
const maxDepth = 64;
const maxOpenerScan = 2000;

// `configure<PublishingExtension> {` and `extensions.configure(PublishingExtension::class.java) {`
// are the `publishing {` block where type-safe accessors are missing (subprojects, Kotlin classes).
const extensionBlocks: Record<string, string> = { PublishingExtension: 'publishing', NexusPublishExtension: 'nexusPublishing' };

function opener(tokens: Token[], brace: number): Block[] {
  let j = brace - 1;
  let arg: string | undefined;
  let extension: string | undefined;
  const skipGroup = (close: string, open: string): void => {
    let depth = 0;
    // An opener's argument list is short; scanning further back on garbage would be quadratic.
    const stop = Math.max(0, j - maxOpenerScan);
    for (; j >= stop; j--) {
      const t = tokens[j]!;
      if (t.kind !== 'punct') {
        // Scanning backwards, so the last string seen is the leftmost argument.
        if (t.kind === 'string' && depth >= 1 && close === ')') arg = t.text;
        if (t.kind === 'ident' && depth >= 1 && extensionBlocks[t.text] !== undefined) extension = extensionBlocks[t.text];
        continue;
      }
      if (t.text === close) depth++;
      else if (t.text === open && --depth === 0) {
        j--;
        return;
      }
    }
  };
  if (tokens[j]?.kind === 'punct' && tokens[j]!.text === ')') skipGroup(')', '(');
  if (tokens[j]?.kind === 'punct' && tokens[j]!.text === '>') skipGroup('>', '<');
  const t = tokens[j];
  const named = t?.kind === 'ident' ? t.text : '';
  const block: Block = { name: extension !== undefined && named === 'configure' ? extension : named, line: tokens[brace]!.line };
  if (arg !== undefined) block.arg = arg;
  // `publishing.repositories.maven {` is `publishing { repositories { maven {` written short.
  const qualifiers: Block[] = [];
  for (let k = j; tokens[k - 1]?.text === '.' && tokens[k - 2]?.kind === 'ident'; k -= 2) {
    qualifiers.unshift({ name: tokens[k - 2]!.text, line: block.line });
  }
  return [...qualifiers, block];
}

/**
 * Splits a token stream into statements, each with the blocks around it. Unbalanced braces are
 * tolerated: a stray `}` at the top level is ignored, blocks left open at the end are closed.
 */
export function statements(tokens: Token[]): Statement[] {
  const out: Statement[] = [];
  const path: Block[] = [];
  /** How many blocks each open `{` pushed (more than one for a dotted opener). */
  const pushed: number[] = [];
  let current: Token[] = [];
  let currentPath: Block[] = [];
  let parens = 0;
  const flush = (): void => {
    if (current.length > 0) out.push({ tokens: current, path: currentPath, line: current[0]!.line });
    current = [];
    parens = 0;
  };
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.kind === 'punct' && t.text === '{') {
      const blocks = path.length >= maxDepth ? [] : opener(tokens, i);
      flush();
      path.push(...blocks);
      pushed.push(blocks.length);
      continue;
    }
    if (t.kind === 'punct' && t.text === '}') {
      flush();
      path.length = Math.max(0, path.length - (pushed.pop() ?? 0));
      continue;
    }
    if (t.kind === 'punct' && t.text === ';' && parens === 0) {
      flush();
      continue;
    }
    if (t.nl && current.length > 0 && parens <= 0) {
      const last = current[current.length - 1]!;
      const continues =
        (t.kind === 'punct' || t.kind === 'ident') && continuationStarts.has(t.text)
          ? true
          : last.kind === 'punct' && continuationEnds.has(last.text);
      if (!continues) flush();
    }
    if (current.length === 0) currentPath = [...path];
    if (t.kind === 'punct' && (t.text === '(' || t.text === '[')) parens++;
    if (t.kind === 'punct' && (t.text === ')' || t.text === ']')) parens--;
    current.push(t);
  }
  flush();
  return out;
}

/** The statement's first token is the identifier `name`. */
export function startsWith(s: Statement, name: string): boolean {
  const t = s.tokens[0];
  return t !== undefined && t.kind === 'ident' && t.text === name;
}

/** Index of the innermost block with one of these names, or -1. */
export function blockIndex(path: readonly Block[], names: readonly string[]): number {
  for (let i = path.length - 1; i >= 0; i--) if (names.includes(path[i]!.name)) return i;
  return -1;
}

export function constantStrings(tokens: readonly Token[]): Token[] {
  return tokens.filter((t) => t.kind === 'string' && t.dynamic !== true);
}
