import { effectivePomFromText, hasUnresolved, parsePom, projectPropertyLookup } from '../pom/index.js';
import type { ParentRef } from '../pom/index.js';
import { dependenciesWithoutVersion, type DependencyVersionAnswer } from './dependency-versions.js';

/** What the portal's POM rules look at, after Maven inheritance and interpolation. */
export interface PomSummary {
  groupId?: string;
  artifactId?: string;
  version?: string;
  packaging: string;
  name?: string;
  description?: string;
  url?: string;
  scmUrl?: string;
  hasLicenses: boolean;
  hasDevelopers: boolean;
  /** Dependencies with no version of their own nor a managed one (unknown when a parent or BOM is missing). */
  dependencyVersions: DependencyVersionAnswer;
}

export type PomLoader = (groupId: string, artifactId: string, version: string) => Promise<string | undefined>;

/** A parent chain deeper than this is a cycle or a mistake. */
const maxParentDepth = 16;

const refKey = (ref: ParentRef): string | undefined =>
  ref.groupId === undefined || ref.artifactId === undefined || ref.version === undefined ? undefined : `${ref.groupId}:${ref.artifactId}:${ref.version}`;

/**
 * Summarises a POM with its parents. The shared POM model (src/core/pom) resolves parents
 * synchronously, while ours may come from the public repository, so the chain's texts are
 * fetched first and then handed to the model.
 */
export async function summarizePom(text: string, loadPom: PomLoader): Promise<{ ok: true; summary: PomSummary } | { ok: false; reason: string }> {
  const parsed = parsePom(text);
  if (!parsed.ok) return { ok: false, reason: parsed.line === undefined ? parsed.message : `${parsed.message} (line ${parsed.line})` };
  const texts = new Map<string, string>();
  let ref = parsed.pom.parent;
  while (ref !== undefined && texts.size < maxParentDepth) {
    const key = refKey(ref);
    if (key === undefined || texts.has(key)) break;
    const parentText = await loadPom(ref.groupId!, ref.artifactId!, ref.version!);
    if (parentText === undefined) break;
    texts.set(key, parentText);
    const parent = parsePom(parentText);
    ref = parent.ok ? parent.pom.parent : undefined;
  }
  const result = effectivePomFromText(text, (r) => {
    const key = refKey(r);
    return key === undefined ? undefined : texts.get(key);
  });
  if (!result.ok) return { ok: false, reason: result.message };
  const eff = result.effective;
  const present = (value: string | undefined): string | undefined => (value === undefined || value.trim() === '' ? undefined : value);
  const literal = (value: string | undefined): string | undefined => (value === undefined || hasUnresolved(value) ? undefined : value);
  // The model's own lookup: a coordinate written ${pom.groupId} or ${project.parent.version} reads as Maven reads it.
  const lookup = projectPropertyLookup(result.chain[0]!.pom, { groupId: eff.groupId, version: eff.version, properties: eff.properties });
  const summary: PomSummary = {
    packaging: eff.packaging,
    hasLicenses: (eff.licenses?.value ?? 0) > 0,
    hasDevelopers: (eff.developers?.value.length ?? 0) > 0,
    // A parent the chain could not reach may manage the versions: no verdict then.
    dependencyVersions: result.problem === undefined ? await dependenciesWithoutVersion(text, [...texts.values()], lookup, loadPom) : { known: false },
  };
  const set = (key: 'groupId' | 'artifactId' | 'version' | 'name' | 'description' | 'url' | 'scmUrl', value: string | undefined): void => {
    if (value !== undefined) summary[key] = value;
  };
  set('groupId', literal(eff.groupId));
  set('artifactId', literal(eff.artifactId));
  set('version', literal(eff.version));
  set('name', present(eff.name?.value));
  set('description', present(eff.description?.value));
  set('url', present(eff.url?.value));
  set('scmUrl', present(eff.scmUrl?.value));
  return { ok: true, summary };
}
