import { child, children, interpolate, parseXml, type XmlElement } from '../pom/index.js';

/**
 * The portal's "Dependency version information is missing" rule: a dependency of the published
 * POM with no version of its own and none from `<dependencyManagement>` (the POM's, its parents',
 * or a BOM they import). Peers report it when the version lived in a parent the portal cannot see
 * or in a profile; a version that merely is a property counts as given (Maven resolves it).
 */

/** How deep BOM imports are followed (a BOM importing a BOM…); past it the answer is "unknown". */
const maxImportDepth = 4;

export type DependencyVersionAnswer =
  /** `group:artifact` of each dependency without a version, in declaration order. */
  | { known: true; missing: string[] }
  /** A parent or an imported BOM could not be read: saying "missing" would be a guess. */
  | { known: false };

interface Declared {
  groupId: string;
  artifactId: string;
  version?: string;
  scope?: string;
  type?: string;
}

function declared(list: XmlElement | undefined, ip: (v: string) => string): Declared[] {
  const out: Declared[] = [];
  for (const d of children(list, 'dependency')) {
    const groupId = child(d, 'groupId')?.text;
    const artifactId = child(d, 'artifactId')?.text;
    if (groupId === undefined || artifactId === undefined) continue;
    const entry: Declared = { groupId: ip(groupId), artifactId: ip(artifactId) };
    const version = child(d, 'version')?.text;
    if (version !== undefined && version.trim() !== '') entry.version = ip(version);
    const scope = child(d, 'scope')?.text;
    if (scope !== undefined) entry.scope = scope;
    const type = child(d, 'type')?.text;
    if (type !== undefined) entry.type = type;
    out.push(entry);
  }
  return out;
}

const key = (d: { groupId: string; artifactId: string }): string => `${d.groupId}:${d.artifactId}`;

/**
 * `ownText` is the published POM, `chainTexts` its parents nearest first (all of them: the caller
 * says unknown when the chain is cut), `properties` the effective properties for `${…}` in
 * coordinates. BOMs are loaded through `loadPom`.
 */
export async function dependenciesWithoutVersion(
  ownText: string,
  chainTexts: readonly string[],
  properties: (name: string) => string | undefined,
  loadPom: (groupId: string, artifactId: string, version: string) => Promise<string | undefined>,
): Promise<DependencyVersionAnswer> {
  const ip = (v: string): string => (v.includes('${') ? interpolate(v, properties) : v);
  const own = parseXml(ownText);
  if (!own.ok) return { known: true, missing: [] };
  const dependencies = declared(child(own.root, 'dependencies'), ip);
  const needing = dependencies.filter((d) => d.version === undefined);
  if (needing.length === 0) return { known: true, missing: [] };

  const managed = new Set<string>();
  // The published POM is parsed once (above); the parents and BOMs as they are reached.
  const pending: { root: XmlElement | string; depth: number }[] = [own.root, ...chainTexts].map((root) => ({ root, depth: 0 }));
  const seenBoms = new Set<string>();
  while (pending.length > 0) {
    const next = pending.shift()!;
    const depth = next.depth;
    const parsed = typeof next.root === 'string' ? parseXml(next.root) : { ok: true as const, root: next.root };
    if (!parsed.ok) return { known: false };
    const parent = child(parsed.root, 'parent');
    if (depth > 0 && parent !== undefined) {
      // A BOM's parent manages versions too (jackson-bom's does); the chain's parents are given.
      const [g, a, v] = ['groupId', 'artifactId', 'version'].map((n) => child(parent, n)?.text);
      if (g === undefined || a === undefined || v === undefined) return { known: false };
      if (!seenBoms.has(`${g}:${a}:${v}`)) {
        seenBoms.add(`${g}:${a}:${v}`);
        const text = await loadPom(g, a, v);
        if (text === undefined) return { known: false };
        pending.push({ root: text, depth });
      }
    }
    // A BOM's own references are its own; the chain's properties are the best reading of both.
    for (const m of declared(child(child(parsed.root, 'dependencyManagement'), 'dependencies'), ip)) {
      if (m.scope === 'import' && m.type === 'pom') {
        if (m.version === undefined || m.version.includes('${') || depth >= maxImportDepth) return { known: false };
        const id = `${key(m)}:${m.version}`;
        if (seenBoms.has(id)) continue;
        seenBoms.add(id);
        const bom = await loadPom(m.groupId, m.artifactId, m.version);
        if (bom === undefined) return { known: false };
        pending.push({ root: bom, depth: depth + 1 });
        continue;
      }
      if (m.version !== undefined) managed.add(key(m));
    }
  }
  return { known: true, missing: needing.filter((d) => !managed.has(key(d))).map(key) };
}
