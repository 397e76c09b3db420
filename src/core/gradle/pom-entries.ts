import type { Token } from './lexer.js';
import type { Block, Statement } from './statements.js';

/**
 * The `developer { … }` and `license { … }` entries a build script writes in a publication's
 * `pom { … }` (maven-publish, vanniktech's `mavenPublishing`, the old `pom.project { … }`), read
 * so that the POM rules of DESIGN §4 (`developer-empty`, `license-empty`) reach Gradle builds.
 *
 * The reading is deliberately one-sided: an entry is only ever called empty when every statement
 * in it is a field setting relctl understands. A computed value (a variable, a property lookup, an
 * interpolated string, a concatenation) counts as present; anything else in the block (a loop, an
 * `if`, a typed closure parameter) makes the entry unknown, and unknown is never reported.
 */
export interface PomEntry {
  kind: 'developer' | 'license';
  /** Line of the `developer {` / `license {` opener. */
  line: number;
  /** Fields set to something: a non-blank literal or a computed value. */
  present: string[];
  /** Fields set to a literal that is empty or whitespace only (or `null`): the POM gets nothing. */
  blank: string[];
  /** A literal e-mail address, for the message (`only email jane@example.org`). */
  email?: string;
  /** Something in the block relctl does not read: the entry is not judged. */
  unknown?: boolean;
  /** Written in the root's `subprojects {}` / `allprojects {}` / `project(':x') {}`, named for the message. */
  scopeBlock?: string;
}

const developerFields = new Set(['id', 'name', 'email', 'url', 'organization', 'organizationUrl', 'roles', 'timezone', 'properties']);
const licenseFields = new Set(['name', 'url', 'distribution', 'comments']);
// Nested blocks a developer may hold (the old `pom.project { developers { developer { roles { role 'x' } } } }`).
const nestedAllowed = new Set(['roles', 'properties']);
const scopeBlocks = new Set(['subprojects', 'allprojects', 'project']);

/** The opener statement of an entry: `developer` (or `license`) alone, directly in `developers` (`licenses`). */
function entryKind(s: Statement): 'developer' | 'license' | undefined {
  const t = s.tokens;
  if (t.length !== 1 || t[0]!.kind !== 'ident') return undefined;
  const parent = s.path[s.path.length - 1]?.name;
  const kind = t[0]!.text === 'developer' && parent === 'developers' ? 'developer' : t[0]!.text === 'license' && parent === 'licenses' ? 'license' : undefined;
  if (kind === undefined) return undefined;
  // Only a publication's POM: `pom {` (or `pom.project {`) around it, and not the XML builder of `withXml`.
  const names = s.path.map((b) => b.name);
  if (!names.includes('pom') || names.includes('withXml')) return undefined;
  return kind;
}

/** `name.set("x")`, `name = "x"`, `name "x"`, `name("x")`, `setName("x")`, `this.name.set(x)`: the field and its value tokens. */
function fieldSetting(tokens: readonly Token[]): { field: string; value: Token[] } | undefined {
  let i = 0;
  if ((tokens[0]?.text === 'this' || tokens[0]?.text === 'it') && tokens[1]?.text === '.') i = 2;
  const head = tokens[i];
  if (head?.kind !== 'ident') return undefined;
  let field = head.text;
  let rest = tokens.slice(i + 1);
  const setter = /^set([A-Z]\w*)$/.exec(field);
  if (setter !== null && rest[0]?.text !== '.' && rest[0]?.text !== '=') field = setter[1]!.charAt(0).toLowerCase() + setter[1]!.slice(1);
  if (rest[0]?.text === '.' && rest[1]?.text === 'set' && rest[2]?.text === '(') rest = rest.slice(3, closing(rest, 2));
  else if (rest[0]?.text === '=') rest = rest.slice(1);
  else if (rest[0]?.text === '(') rest = rest.slice(1, closing(rest, 0));
  else if (rest.length > 0 && (rest[0]!.kind === 'string' || rest[0]!.kind === 'ident')) rest = rest.slice(0);
  else return undefined;
  return { field, value: rest };
}

/** Index of the `)` matching the `(` at `open`, or the end. */
function closing(tokens: readonly Token[], open: number): number {
  let depth = 0;
  for (let k = open; k < tokens.length; k++) {
    const t = tokens[k]!;
    if (t.kind !== 'punct') continue;
    if (t.text === '(') depth++;
    else if (t.text === ')' && --depth === 0) return k;
  }
  return tokens.length;
}

type Value = { blank: true } | { blank: false; literal?: string } | undefined;

/** A lone constant string is a literal (blank when whitespace only); any other expression is computed, so present. */
function valueOf(tokens: readonly Token[]): Value {
  if (tokens.length === 0) return undefined;
  if (tokens.length === 1 && tokens[0]!.kind === 'ident' && tokens[0]!.text === 'null') return { blank: true };
  if (tokens.length === 1 && tokens[0]!.kind === 'string' && tokens[0]!.dynamic !== true) {
    const text = tokens[0]!.text;
    return text.trim() === '' ? { blank: true } : { blank: false, literal: text.trim() };
  }
  return { blank: false };
}

/** Every developer and license entry of a script's publication POMs, in source order. */
export function pomEntries(all: readonly Statement[]): PomEntry[] {
  const out: PomEntry[] = [];
  for (let i = 0; i < all.length; i++) {
    const opener = all[i]!;
    const kind = entryKind(opener);
    if (kind === undefined) continue;
    const depth = opener.path.length;
    const entry: PomEntry = { kind, line: opener.line, present: [], blank: [] };
    // `project(':x') {` is a scope; `pom.project {` (no argument) is the POM's own project element.
    const scope = [...opener.path].reverse().find((b: Block) => scopeBlocks.has(b.name) && (b.name !== 'project' || b.arg !== undefined));
    if (scope !== undefined) entry.scopeBlock = scope.arg === undefined ? scope.name : `${scope.name}('${scope.arg}')`;
    const fields = kind === 'developer' ? developerFields : licenseFields;
    // The statements inside share one Block object at the opener's depth (a fresh one per `{`).
    const own = all[i + 1]?.path[depth];
    for (let j = i + 1; j < all.length; j++) {
      const s = all[j]!;
      if (own === undefined || s.path.length <= depth || s.path[depth] !== own) break;
      if (own.name !== kind) break;
      if (s.path.length > depth + 1) {
        if (!nestedAllowed.has(s.path[depth + 1]!.name)) entry.unknown = true;
        continue;
      }
      const setting = fieldSetting(s.tokens);
      // A nested block's own opener (`roles`) is a statement too.
      if (setting === undefined && s.tokens.length === 1 && nestedAllowed.has(s.tokens[0]!.text)) continue;
      const value = setting === undefined ? undefined : valueOf(setting.value);
      if (setting === undefined || !fields.has(setting.field) || value === undefined) {
        entry.unknown = true;
        continue;
      }
      if (value.blank) entry.blank.push(setting.field);
      else {
        entry.present.push(setting.field);
        if (setting.field === 'email' && value.literal !== undefined) entry.email = value.literal;
      }
    }
    out.push(entry);
  }
  return out;
}

/** Empty as PomChecker judges it: a developer with none of id, name, organization, organizationUrl; a license with neither name nor url. */
export function isEmptyPomEntry(entry: PomEntry): boolean {
  if (entry.unknown === true) return false;
  const naming = entry.kind === 'developer' ? ['id', 'name', 'organization', 'organizationUrl'] : ['name', 'url'];
  return !naming.some((f) => entry.present.includes(f));
}
