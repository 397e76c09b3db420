/**
 * Shared by the Maven fix rules: a descriptor as read and its elements found by path or by line,
 * with the XML scanner's offsets (the one XML position source of the fixes). Pure.
 */
import type { FixSource } from '../../core/fix/types.js';
import { parseXml, type XmlElement } from '../../core/pom/xml.js';
import type { FixContext } from './types.js';

/** A descriptor's text and element tree (with offsets). */
export interface XmlDoc {
  source: FixSource;
  text: string;
  root: XmlElement;
}

/** Reads and scans a descriptor; undefined when it does not exist or does not parse. */
export function readXml(ctx: Pick<FixContext, 'read'>, file: string): XmlDoc | undefined {
  const source = ctx.read(file);
  if (source === undefined) return undefined;
  const parsed = parseXml(source.text);
  return parsed.ok ? { source, text: source.text, root: parsed.root } : undefined;
}

/**
 * The element path from the root to an element whose start tag is on `line`: the first (document
 * order) whose name is in `prefer`, in that order of preference, else the first on the line. A
 * line may hold several elements (`<repository><id>x</id><url>...</url></repository>`).
 */
export function pathAtLine(root: XmlElement, line: number, prefer: readonly string[] = []): XmlElement[] | undefined {
  const found: XmlElement[][] = [];
  const walk = (el: XmlElement, trail: XmlElement[]): void => {
    const here = [...trail, el];
    if (el.line === line) found.push(here);
    // Children start in document order: past the line, the rest do too.
    for (const c of el.children) {
      if (c.line > line) break;
      walk(c, here);
    }
  };
  walk(root, []);
  for (const name of prefer) {
    const hit = found.find((p) => p[p.length - 1]!.name === name);
    if (hit !== undefined) return hit;
  }
  return found[0];
}

/**
 * Every element at `path` (names from the root; `*` matches any one name), in document order.
 * `elementsAt(root, ['project', 'version'])` is the project's own version, not its parent's; the
 * scanner has already set comments, CDATA, the doctype and entities aside.
 */
export function elementsAt(root: XmlElement, path: readonly string[]): XmlElement[] {
  const [first, ...rest] = path;
  if (first !== '*' && first !== root.name) return [];
  let level = [root];
  for (const name of rest) level = level.flatMap((el) => el.children.filter((c) => name === '*' || c.name === name));
  return level;
}

export function elementAt(root: XmlElement, path: readonly string[]): XmlElement | undefined {
  return elementsAt(root, path)[0];
}

/** `<a/>`: an empty-element tag, no content to replace. */
export function isEmptyTag(el: XmlElement): boolean {
  return el.contentEnd === el.end;
}
