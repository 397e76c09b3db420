/**
 * Groups a deployment's maven paths into components: `<group path>/<artifactId>/<version>/<file>`.
 * Each folder holding files is one component; a file whose name does not start with
 * `<artifactId>-<version>` is reported by the rules (the portal's "File path … is not valid").
 */
export const checksumExtensions = ['md5', 'sha1', 'sha256', 'sha512'] as const;
export type ChecksumAlgorithm = (typeof checksumExtensions)[number];

export interface ComponentLayout {
  /** The folder, e.g. `org/example/demo/1.0.0`. */
  dir: string;
  groupId: string;
  artifactId: string;
  version: string;
  /** All files of the folder (maven paths), sorted. */
  files: string[];
}

export interface ArtifactName {
  /** Undefined when the file is the main artifact or the POM. */
  classifier?: string;
  extension: string;
}

export function isIgnored(path: string): boolean {
  return basename(path).startsWith('maven-metadata.xml');
}

/** Signatures and checksums accompany artifacts; they need no signature or checksum themselves. */
export function isArtifact(path: string): boolean {
  const name = basename(path);
  if (name.endsWith('.asc')) return false;
  return !checksumExtensions.some((ext) => name.endsWith(`.${ext}`));
}

export function basename(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? path : path.slice(slash + 1);
}

export function normalizePath(path: string): string {
  return path.replace(/\\/g, '/').replace(/^\/+/, '');
}

export function groupComponents(paths: Iterable<string>): ComponentLayout[] {
  const byDir = new Map<string, string[]>();
  for (const raw of paths) {
    const path = normalizePath(raw);
    if (path === '' || isIgnored(path)) continue;
    const slash = path.lastIndexOf('/');
    const dir = slash < 0 ? '' : path.slice(0, slash);
    const list = byDir.get(dir);
    if (list === undefined) byDir.set(dir, [path]);
    else list.push(path);
  }
  const components: ComponentLayout[] = [];
  for (const [dir, files] of byDir) {
    const parts = dir === '' ? [] : dir.split('/');
    const version = parts.at(-1) ?? '';
    const artifactId = parts.at(-2) ?? '';
    const groupId = parts.slice(0, -2).join('.');
    components.push({ dir, groupId, artifactId, version, files: files.sort() });
  }
  return components.sort((a, b) => a.groupId.localeCompare(b.groupId) || a.artifactId.localeCompare(b.artifactId) || a.version.localeCompare(b.version) || a.dir.localeCompare(b.dir));
}

/** A folder is a component only with a group, an artifactId and a version. */
export function isValidComponentDir(component: ComponentLayout): boolean {
  return component.groupId !== '' && component.artifactId !== '' && component.version !== '';
}

/** `demo-1.0.0-sources.jar` → {classifier: 'sources', extension: 'jar'}; undefined when misnamed. */
export function parseArtifactName(name: string, artifactId: string, version: string): ArtifactName | undefined {
  const prefix = `${artifactId}-${version}`;
  if (!name.startsWith(prefix)) return undefined;
  const rest = name.slice(prefix.length);
  if (rest.startsWith('.') && rest.length > 1) return { extension: rest.slice(1) };
  if (rest.startsWith('-')) {
    const dot = rest.indexOf('.');
    if (dot > 1 && dot < rest.length - 1) return { classifier: rest.slice(1, dot), extension: rest.slice(dot + 1) };
  }
  return undefined;
}
