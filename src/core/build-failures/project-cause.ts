import type { DecodedCause } from './maven.js';

/**
 * Decoded causes that belong to the project itself (its tests, the JDK its build needs, its
 * plugins and their configuration): a real release on the same machine fails the same way, and
 * only for those may the rehearsal say so (issue 27 item 2). Anything else (a download, the
 * environment, relctl's own set-up, a cause not decoded) says nothing about the real release.
 */
const projectCauses = new Set(['tests', 'jdk-too-new', 'jdk-too-old', 'plugin-classpath', 'gpg-batch']);

export function isProjectCause(cause: Pick<DecodedCause, 'code'> | undefined): boolean {
  return cause !== undefined && projectCauses.has(cause.code);
}
