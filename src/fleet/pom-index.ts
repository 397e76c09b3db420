/**
 * Which fleet repository builds which POM (DESIGN §13, In-fleet parents), and the parent graph
 * between the fleet's repositories. Pure: the POM texts come in, read by the caller.
 */
import { coordinatesRefusal, type CoordinateRefusal } from '../core/maven-coordinates.js';
import { parsePom, type RawPom } from '../core/pom/index.js';

/** One POM a fleet repository builds, as declared at its default branch's tip. */
export interface BuiltPom {
  repo: string;
  /** Path in the repository, forward slashes. */
  file: string;
  groupId: string;
  artifactId: string;
  /** The declared (or inherited) version, properties of the file itself interpolated; may be absent. */
  version?: string;
  /** The `<parent>` it names, as `groupId:artifactId:version`. */
  parent?: { groupId: string; artifactId: string; version?: string };
}

/** A POM whose own coordinates Maven refuses: never indexed, so never a fleet parent and never a path. */
export interface RefusedPom {
  repo: string;
  file: string;
  refusal: CoordinateRefusal;
}

/**
 * The repository's own POMs from their texts; a POM that does not parse is left out (the audit
 * reports it), one whose coordinates Maven refuses is set apart (a hostile `../` would become a path).
 */
export function builtPoms(repo: string, files: readonly { file: string; text: string }[]): { poms: BuiltPom[]; refused: RefusedPom[] } {
  const poms: BuiltPom[] = [];
  const refused: RefusedPom[] = [];
  for (const { file, text } of files) {
    const parsed = parsePom(text);
    if (!parsed.ok) continue;
    const built = builtPom(repo, file, parsed.pom);
    if (built === undefined) continue;
    const refusal = coordinatesRefusal(built);
    if (refusal === undefined) poms.push(built);
    else refused.push({ repo, file, refusal });
  }
  return { poms, refused };
}

function builtPom(repo: string, file: string, pom: RawPom): BuiltPom | undefined {
  const groupId = pom.groupId?.value ?? pom.parent?.groupId;
  const artifactId = pom.artifactId?.value;
  if (groupId === undefined || artifactId === undefined || `${groupId}${artifactId}`.includes('${')) return undefined;
  const version = ownValue(pom.version?.value ?? pom.parent?.version, pom.properties);
  const p = pom.parent;
  const parent = p?.groupId !== undefined && p.artifactId !== undefined ? { groupId: p.groupId, artifactId: p.artifactId, ...(p.version === undefined ? {} : { version: p.version }) } : undefined;
  return { repo, file, groupId, artifactId, ...(version === undefined ? {} : { version }), ...(parent === undefined ? {} : { parent }) };
}

/** A CI-friendly `${revision}` resolved from the POM's own properties; undefined when it stays a reference. */
function ownValue(value: string | undefined, props: ReadonlyMap<string, string>): string | undefined {
  if (value === undefined) return undefined;
  const resolved = value.replace(/\$\{([^}]+)\}/g, (whole, name: string) => props.get(name) ?? whole);
  return resolved.includes('${') ? undefined : resolved.trim();
}

/** `groupId:artifactId` → the fleet repository and file that build it. */
export class FleetPomIndex {
  private readonly byGa = new Map<string, BuiltPom>();
  /** A coordinate two repositories both claim: the first (by name) keeps it; listed for --verbose. */
  readonly conflicts: string[] = [];

  constructor(poms: Iterable<BuiltPom>) {
    for (const pom of poms) {
      const key = `${pom.groupId}:${pom.artifactId}`;
      const known = this.byGa.get(key);
      if (known === undefined) this.byGa.set(key, pom);
      else if (known.repo !== pom.repo) this.conflicts.push(`${key} is built by both ${known.repo} (${known.file}) and ${pom.repo} (${pom.file}); ${known.repo} is taken`);
    }
  }

  builder(groupId: string | undefined, artifactId: string | undefined): BuiltPom | undefined {
    if (groupId === undefined || artifactId === undefined) return undefined;
    return this.byGa.get(`${groupId}:${artifactId}`);
  }
}

export interface FleetEdge {
  /** The child repository. */
  from: string;
  /** The fleet repository that builds one of its parents. */
  to: string;
}

/** Child → parent edges between different fleet repositories, from every POM's `<parent>`. */
export function fleetEdges(poms: Iterable<BuiltPom>, index: FleetPomIndex): FleetEdge[] {
  const seen = new Set<string>();
  const edges: FleetEdge[] = [];
  for (const pom of poms) {
    const parent = pom.parent === undefined ? undefined : index.builder(pom.parent.groupId, pom.parent.artifactId);
    if (parent === undefined || parent.repo === pom.repo) continue;
    const key = `${pom.repo}\u0000${parent.repo}`;
    if (seen.has(key)) continue;
    seen.add(key);
    edges.push({ from: pom.repo, to: parent.repo });
  }
  return edges.sort((a, b) => a.from.localeCompare(b.from, 'en') || a.to.localeCompare(b.to, 'en'));
}

/**
 * The repositories parents first (a topological order; names in order within a layer). A cycle,
 * which Maven itself refuses, does not hang the order: its members follow in name order.
 */
export function parentsFirst(names: readonly string[], edges: readonly FleetEdge[]): string[] {
  const parentsOf = new Map<string, Set<string>>(names.map((n) => [n, new Set<string>()]));
  for (const e of edges) if (parentsOf.has(e.from) && parentsOf.has(e.to)) parentsOf.get(e.from)!.add(e.to);
  const placed = new Set<string>();
  const order: string[] = [];
  const sorted = [...names].sort((a, b) => a.localeCompare(b, 'en'));
  while (order.length < sorted.length) {
    const layer = sorted.filter((n) => !placed.has(n) && [...parentsOf.get(n)!].every((p) => placed.has(p)));
    const next = layer.length > 0 ? layer : sorted.filter((n) => !placed.has(n)).slice(0, 1);
    for (const n of next) {
      placed.add(n);
      order.push(n);
    }
  }
  return order;
}
