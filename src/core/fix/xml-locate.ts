/**
 * Finds elements of a POM or settings file by path (`project/parent/version`) with their offsets,
 * for the text edits of `preflight --fix`. Not a parser: it only tells markup from comments, CDATA,
 * processing instructions and the doctype, so a commented-out `<version>` is never edited. Pure;
 * forgiving (unbalanced markup yields what could be located, never an exception).
 */
import { indentOfLine, lineStartOf } from './text-style.js';
import { lineOf } from './apply.js';

export interface LocatedElement {
  name: string;
  /** Offset of the open tag's `<`. */
  openStart: number;
  /** Offset just after the open tag's `>` (the content's start). */
  contentStart: number;
  /** Offset of the close tag's `<` (equals contentStart for `<x/>`). */
  contentEnd: number;
  /** Offset just after the close tag's `>` (or the self-closing tag's). */
  closeEnd: number;
  selfClosing: boolean;
  /** Leading white space of the open tag's line; '' when other text precedes the tag on it. */
  indent: string;
  /** 1-based line of the open tag. */
  line: number;
}

interface Open {
  name: string;
  openStart: number;
  contentStart: number;
}

/** Index just past `end` searched from `from`, or the text's length when it never comes. */
function past(text: string, from: number, end: string): number {
  const i = text.indexOf(end, from);
  return i === -1 ? text.length : i + end.length;
}

/** End of a tag (`>` outside quoted attribute values), or -1. */
function tagEnd(text: string, from: number): number {
  let quote = '';
  for (let i = from; i < text.length; i++) {
    const c = text[i]!;
    if (quote !== '') {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '>') return i;
  }
  return -1;
}

function matches(path: readonly string[], stack: readonly Open[], name: string): boolean {
  if (stack.length + 1 !== path.length) return false;
  for (let i = 0; i < stack.length; i++) if (path[i] !== '*' && path[i] !== stack[i]!.name) return false;
  return path[stack.length] === '*' || path[stack.length] === name;
}

function located(text: string, o: Open, contentEnd: number, closeEnd: number, selfClosing: boolean): LocatedElement {
  const lead = text.slice(lineStartOf(text, o.openStart), o.openStart);
  return {
    name: o.name,
    openStart: o.openStart,
    contentStart: o.contentStart,
    contentEnd,
    closeEnd,
    selfClosing,
    indent: lead.trim() === '' ? indentOfLine(text, o.openStart) : '',
    line: lineOf(text, o.openStart),
  };
}

/**
 * Every element at `path` (names from the root; `*` matches any one name), in document order.
 * `locateElements(pom, ['project', 'version'])` finds the project's own version, not the parent's.
 */
export function locateElements(text: string, path: readonly string[]): LocatedElement[] {
  const found: LocatedElement[] = [];
  const stack: Open[] = [];
  let i = text.indexOf('<');
  while (i !== -1 && i < text.length) {
    if (text.startsWith('<!--', i)) i = past(text, i + 4, '-->');
    else if (text.startsWith('<![CDATA[', i)) i = past(text, i + 9, ']]>');
    else if (text.startsWith('<?', i)) i = past(text, i + 2, '?>');
    else if (text.startsWith('<!', i)) {
      // The doctype, with an internal subset in brackets when there is one.
      const bracket = text.indexOf('[', i);
      const close = text.indexOf('>', i);
      i = bracket !== -1 && bracket < close ? past(text, past(text, bracket, ']'), '>') : close === -1 ? text.length : close + 1;
    } else if (text[i + 1] === '/') {
      const end = text.indexOf('>', i);
      if (end === -1) break;
      const name = text.slice(i + 2, end).trim();
      // Close the innermost element of that name (and whatever was left open inside it).
      let k = stack.length - 1;
      while (k >= 0 && stack[k]!.name !== name) k--;
      if (k >= 0) {
        const o = stack[k]!;
        stack.length = k;
        if (matches(path, stack, o.name)) found.push(located(text, o, i, end + 1, false));
      }
      i = end + 1;
    } else {
      const end = tagEnd(text, i + 1);
      if (end === -1) break;
      const name = /^[^\s/>]+/.exec(text.slice(i + 1, end))?.[0];
      if (name !== undefined) {
        const o: Open = { name, openStart: i, contentStart: end + 1 };
        if (text[end - 1] === '/') {
          if (matches(path, stack, name)) found.push(located(text, o, end + 1, end + 1, true));
        } else stack.push(o);
      }
      i = end + 1;
    }
    i = text.indexOf('<', i);
  }
  return found.sort((a, b) => a.openStart - b.openStart);
}

/** The first element at `path`, if any. */
export function locateElement(text: string, path: readonly string[]): LocatedElement | undefined {
  return locateElements(text, path)[0];
}
