/**
 * The parts of a POM that Maven's model validation and the publishing rules read besides the
 * coordinates and metadata (model.ts): licenses one by one, repositories left in the POM, a
 * relocation, and duplicate declarations. Read in the same walk over the parsed tree as the rest
 * of the model, never by a second pass over the text.
 */
import { child, children, type XmlElement } from './xml.js';

export interface RawLicense {
  line: number;
  name?: string;
  url?: string;
}

/** A `<repository>` or `<pluginRepository>` written in the POM (it is published with it). */
export interface DeclaredRepository {
  kind: 'repository' | 'pluginRepository';
  line: number;
  id?: string;
  url?: string;
  /** The profile id when declared inside `<profiles>`. */
  profile?: string;
  /** The profile is `activeByDefault`: consumers' builds see it too. */
  activeByDefault?: boolean;
  /** `<releases><enabled>false</enabled>`: Maven asks it for SNAPSHOT versions only. */
  snapshotsOnly?: boolean;
}

/**
 * The same plugin (groupId:artifactId) or dependency (groupId:artifactId:type[:classifier]) twice
 * in one section, as Maven's model validator keys them: raw values, groupId of a plugin defaulting
 * to org.apache.maven.plugins, type of a dependency to jar.
 */
export interface DuplicateDeclaration {
  kind: 'plugin' | 'dependency';
  key: string;
  /** Where, in Maven's words: `dependencies`, `build.pluginManagement.plugins`, `profiles.profile[release].plugins`. */
  section: string;
  line: number;
  firstLine: number;
}

function text(el: XmlElement | undefined): string | undefined {
  return el === undefined || el.text === '' ? undefined : el.text;
}

export function readLicense(el: XmlElement): RawLicense {
  const license: RawLicense = { line: el.line };
  const name = text(child(el, 'name'));
  const url = text(child(el, 'url'));
  if (name !== undefined) license.name = name;
  if (url !== undefined) license.url = url;
  return license;
}

/** Repositories of a `<project>` or `<profile>` element, appended to `out`. */
export function readRepositories(owner: XmlElement | undefined, profile: { id: string; activeByDefault: boolean } | undefined, out: DeclaredRepository[]): void {
  if (owner === undefined) return;
  const lists = [
    ['repositories', 'repository'],
    ['pluginRepositories', 'pluginRepository'],
  ] as const;
  for (const [list, kind] of lists) {
    for (const r of children(child(owner, list), kind)) {
      const repo: DeclaredRepository = { kind, line: r.line };
      const id = text(child(r, 'id'));
      const url = text(child(r, 'url'));
      if (id !== undefined) repo.id = id;
      if (url !== undefined) repo.url = url;
      if (text(child(child(r, 'releases'), 'enabled')) === 'false') repo.snapshotsOnly = true;
      if (profile !== undefined) {
        repo.profile = profile.id;
        if (profile.activeByDefault) repo.activeByDefault = true;
      }
      out.push(repo);
    }
  }
}

/** Duplicate dependencies of one `<dependencies>` list, appended to `out`. */
export function dependencyDuplicates(list: XmlElement | undefined, section: string, out: DuplicateDeclaration[]): void {
  const deps = list === undefined ? [] : list.children;
  if (deps.length < 2) return;
  const seen = new Map<string, number>();
  for (let i = 0; i < deps.length; i++) {
    const d = deps[i]!;
    if (d.name !== 'dependency') continue;
    let g: string | undefined;
    let a: string | undefined;
    let type = 'jar';
    let classifier: string | undefined;
    for (const c of d.children) {
      if (c.name === 'groupId') g = c.text;
      else if (c.name === 'artifactId') a = c.text;
      else if (c.name === 'type' && c.text !== '') type = c.text;
      else if (c.name === 'classifier') classifier = c.text;
    }
    const key = `${g ?? 'null'}:${a ?? 'null'}:${type}${classifier === undefined ? '' : `:${classifier}`}`;
    const first = seen.get(key);
    if (first === undefined) seen.set(key, d.line);
    else out.push({ kind: 'dependency', key, section, line: d.line, firstLine: first });
  }
}

/** The dependency sections of a `<project>` or `<profile>` (prefix '' or `profiles.profile[id].`). */
export function dependencySectionDuplicates(owner: XmlElement | undefined, prefix: string, out: DuplicateDeclaration[]): void {
  if (owner === undefined) return;
  dependencyDuplicates(child(owner, 'dependencies'), `${prefix}dependencies`, out);
  dependencyDuplicates(child(child(owner, 'dependencyManagement'), 'dependencies'), `${prefix}dependencyManagement.dependencies`, out);
}
