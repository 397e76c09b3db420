/**
 * The pure POM model: parse POM text, resolve an inheritance chain through a caller-supplied
 * lookup, compute the effective model. No file system here: the Maven adapter
 * (src/build-tools/maven) and the sandbox's validation rules both feed it text.
 */
import { effectivePom, type ChainLink, type EffectiveOptions, type EffectivePom, type PomIdentity } from './effective.js';
import { readPom, type ParentRef, type RawPom } from './model.js';
import { parseXml } from './xml.js';

export * from './effective.js';
export * from './model.js';
export * from './declarations.js';
export { deploySkips, stagingPluginDeployer, takesOverDeploy, type DeploySkips } from './uploaders.js';
export { interpolate, hasUnresolved, envReferences } from './interpolate.js';
export { LineIndex } from './line-index.js';
export { parseXml, child, children, type XmlElement, type XmlParseResult } from './xml.js';

export type PomParseResult = { ok: true; pom: RawPom } | { ok: false; message: string; line?: number };

/** Parses POM text. Never throws; a file that is not XML or not a `<project>` is `{ ok: false }`. */
export function parsePom(text: string): PomParseResult {
  const xml = parseXml(text);
  if (!xml.ok) return xml;
  if (xml.root.name !== 'project') {
    return { ok: false, message: `the root element is <${xml.root.name}>, not <project>`, line: xml.root.line };
  }
  return { ok: true, pom: readPom(xml.root) };
}

/** `groupId:artifactId:version` as declared (groupId and version fall back to the parent's). */
export function declaredId(pom: RawPom): string {
  const g = pom.groupId?.value ?? pom.parent?.groupId ?? '?';
  const v = pom.version?.value ?? pom.parent?.version ?? '?';
  return `${g}:${pom.artifactId?.value ?? '?'}:${v}`;
}

export function parentId(ref: ParentRef): string {
  return `${ref.groupId ?? '?'}:${ref.artifactId ?? '?'}:${ref.version ?? '?'}`;
}

/** No real hierarchy is this deep; a longer one is a cycle the ids did not reveal. */
const maxChainLength = 64;

/** What a parent lookup returns: the parent, or nothing when it cannot be found. */
export type ParentLookup = (ref: ParentRef, child: ChainLink) => ChainLink | undefined;

export type ChainProblem =
  | { kind: 'unresolved'; ref: ParentRef; child: ChainLink }
  | { kind: 'cycle'; ref: ParentRef; child: ChainLink };

/**
 * Follows `<parent>` references from `start` through `lookup`. Stops at the first parent that
 * cannot be found or at a cycle (a POM that is its own ancestor), reporting it.
 */
export function resolveChain(start: ChainLink, lookup: ParentLookup): { chain: ChainLink[]; problem?: ChainProblem } {
  const chain: ChainLink[] = [start];
  let current = start;
  for (;;) {
    const ref = current.pom.parent;
    if (ref === undefined) return { chain };
    const parent = lookup(ref, current);
    if (parent === undefined) return { chain, problem: { kind: 'unresolved', ref, child: current } };
    if (onChain(chain, parent) || chain.length >= maxChainLength) {
      return { chain, problem: { kind: 'cycle', ref, child: current } };
    }
    chain.push(parent);
    current = parent;
  }
}

/**
 * True when `link` is already on the chain: the same POM object, or (lookups that parse afresh
 * return new objects for the same POM) the same complete id. A chain is short (at most
 * maxChainLength), so a scan beats building sets for each of a reactor's modules.
 */
function onChain(chain: readonly ChainLink[], link: ChainLink): boolean {
  const id = link.identity.id;
  const byId = !id.includes('?');
  for (let i = 0; i < chain.length; i++) {
    const l = chain[i]!;
    if (l.pom === link.pom || (byId && l.identity.id === id)) return true;
  }
  return false;
}

/**
 * Convenience for callers holding POM text in memory (the sandbox's validation rules): parse,
 * resolve parents through `parentText` (return the parent POM's text, or undefined), and compute
 * the effective model.
 */
export function effectivePomFromText(
  text: string,
  parentText: (ref: ParentRef) => string | undefined,
  options: EffectiveOptions & { file?: string } = {},
): { ok: true; effective: EffectivePom; chain: ChainLink[]; problem?: ChainProblem } | { ok: false; message: string; line?: number } {
  const parsed = parsePom(text);
  if (!parsed.ok) return parsed;
  const identity: PomIdentity = { id: declaredId(parsed.pom) };
  if (options.file !== undefined) identity.file = options.file;
  const { chain, problem } = resolveChain({ pom: parsed.pom, identity }, (ref) => {
    const t = parentText(ref);
    if (t === undefined) return undefined;
    const p = parsePom(t);
    return p.ok ? { pom: p.pom, identity: { id: declaredId(p.pom) } } : undefined;
  });
  const effective = effectivePom(chain, options);
  return problem === undefined ? { ok: true, effective, chain } : { ok: true, effective, chain, problem };
}
