/**
 * A -SNAPSHOT never goes into a release upload (issue 42 item 5): the portal fails it with
 * "version cannot be a SNAPSHOT", and on the staging route a failed deployment blocks the
 * namespace until it is dropped. Snapshots belong in the portal's snapshot repository. Pure.
 */
import { StepFailedError } from './errors.js';

/** The -SNAPSHOT versions among maven paths (`g/a/1.0-SNAPSHOT/a-1.0-SNAPSHOT.jar`), sorted. */
export function snapshotVersionsOf(mavenPaths: Iterable<string>): string[] {
  const found = new Set<string>();
  for (const p of mavenPaths) {
    const segments = p.split('/');
    const version = segments[segments.length - 2];
    if (version !== undefined && /-SNAPSHOT$/i.test(version)) found.add(version);
  }
  return [...found].sort();
}

/** The refusal: exit 1, before anything is sent. */
export function snapshotReleaseRefused(versions: readonly string[], what: string): StepFailedError {
  return new StepFailedError(`${what} holds ${versions.join(', ')}: the portal fails every -SNAPSHOT with "version cannot be a SNAPSHOT", and a failed deployment blocks the namespace until it is dropped. Nothing was sent.`, {
    kind: 'snapshot-in-release',
    fix: 'Release a version without -SNAPSHOT (relctl release sets it), or deploy snapshots to the portal\'s snapshot repository (https://central.sonatype.com/repository/maven-snapshots/, with SNAPSHOTs enabled for the namespace) with mvn deploy.',
  });
}
