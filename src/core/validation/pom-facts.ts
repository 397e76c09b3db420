import { XMLParser, XMLValidator } from 'fast-xml-parser';

/**
 * The handful of POM facts the portal's rules look at. Deliberately tiny: the full POM model
 * (inheritance, interpolation, line numbers) belongs to src/core/pom; the rules only need to know
 * whether each required element is present somewhere in the parent chain.
 */
export interface PomFacts {
  groupId?: string;
  artifactId?: string;
  version?: string;
  packaging?: string;
  parent?: { groupId: string; artifactId: string; version: string };
  name?: string;
  description?: string;
  url?: string;
  scmUrl?: string;
  hasLicenses: boolean;
  hasDevelopers: boolean;
}

export type PomReadResult = { ok: true; facts: PomFacts } | { ok: false; reason: string };

const parser = new XMLParser({ ignoreAttributes: true, parseTagValue: false, trimValues: true, processEntities: true });

type Node = Record<string, unknown>;

function text(node: unknown): string | undefined {
  if (typeof node !== 'string') return undefined;
  const value = node.trim();
  return value === '' ? undefined : value;
}

function child(node: unknown, name: string): unknown {
  return node !== null && typeof node === 'object' && !Array.isArray(node) ? (node as Node)[name] : undefined;
}

/** `<licenses><license>…</license></licenses>`: present only with at least one entry. */
function hasEntries(node: unknown, entry: string): boolean {
  const entries = child(node, entry);
  return entries !== undefined && entries !== '';
}

export function readPomFacts(xml: string): PomReadResult {
  const valid = XMLValidator.validate(xml);
  if (valid !== true) return { ok: false, reason: `${valid.err.msg} (line ${valid.err.line})` };
  let doc: unknown;
  try {
    doc = parser.parse(xml);
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
  const project = child(doc, 'project');
  if (project === undefined || typeof project !== 'object') return { ok: false, reason: 'no <project> element' };
  const parentNode = child(project, 'parent');
  const pg = text(child(parentNode, 'groupId'));
  const pa = text(child(parentNode, 'artifactId'));
  const pv = text(child(parentNode, 'version'));
  const facts: PomFacts = {
    hasLicenses: hasEntries(child(project, 'licenses'), 'license'),
    hasDevelopers: hasEntries(child(project, 'developers'), 'developer'),
  };
  const set = (key: 'groupId' | 'artifactId' | 'version' | 'packaging' | 'name' | 'description' | 'url', value: unknown): void => {
    const v = text(value);
    if (v !== undefined) facts[key] = v;
  };
  for (const key of ['groupId', 'artifactId', 'version', 'packaging', 'name', 'description', 'url'] as const) set(key, child(project, key));
  const scmUrl = text(child(child(project, 'scm'), 'url'));
  if (scmUrl !== undefined) facts.scmUrl = scmUrl;
  if (pg !== undefined && pa !== undefined && pv !== undefined) facts.parent = { groupId: pg, artifactId: pa, version: pv };
  return { ok: true, facts };
}

/** What the portal sees after Maven inheritance: `name` is not inherited, the rest is. */
export interface EffectiveFacts {
  packaging: string;
  name?: string;
  description?: string;
  url?: string;
  scmUrl?: string;
  hasLicenses: boolean;
  hasDevelopers: boolean;
}

/** `chain[0]` is the component's own POM, then its parent, grandparent, … as far as resolved. */
export function effectiveFacts(chain: readonly PomFacts[]): EffectiveFacts {
  const own = chain[0];
  const first = <K extends keyof PomFacts>(key: K): PomFacts[K] | undefined => chain.find((p) => p[key] !== undefined)?.[key];
  const out: EffectiveFacts = {
    packaging: own?.packaging ?? 'jar',
    hasLicenses: chain.some((p) => p.hasLicenses),
    hasDevelopers: chain.some((p) => p.hasDevelopers),
  };
  if (own?.name !== undefined) out.name = own.name;
  const description = first('description');
  if (description !== undefined) out.description = description as string;
  const url = first('url');
  if (url !== undefined) out.url = url as string;
  const scmUrl = first('scmUrl');
  if (scmUrl !== undefined) out.scmUrl = scmUrl as string;
  return out;
}
