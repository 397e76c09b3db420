/** Pure helpers for group ids, namespaces and maven paths (no I/O). */

export { inNamespace } from '../../core/namespace.js';

/**
 * The group id a deploy path belongs to: `g/r/o/u/p/artifact/version/file` or, for metadata,
 * `g/r/o/u/p/artifact/maven-metadata.xml[.sha1]`. Undefined when the path is too short.
 */
export function groupIdOfPath(segments: readonly string[]): string | undefined {
  const file = segments[segments.length - 1] ?? '';
  const depth = isMetadata(file) ? 2 : 3;
  if (segments.length <= depth) return undefined;
  return segments.slice(0, segments.length - depth).join('.');
}

export function isMetadata(fileName: string): boolean {
  return fileName.startsWith('maven-metadata.xml');
}

export function repositoryKey(user: string, ip: string, namespace: string): string {
  return `${user}/${ip}/${namespace}--default-repository`;
}

export function purlOf(groupId: string, artifactId: string, version: string): string {
  return `pkg:maven/${groupId}/${artifactId}@${version}`;
}

/** The maven path of a component's POM: used for "is it published" and parent lookups. */
export function pomPath(groupId: string, artifactId: string, version: string): string[] {
  return [...groupId.split('.'), artifactId, version, `${artifactId}-${version}.pom`];
}
