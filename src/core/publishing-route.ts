/**
 * Which way a Maven release reaches the portal (a minimal detector; preflight's full route
 * detection can replace it):
 * - `staging-api`: maven-deploy-plugin PUTs to the OSSRH Staging API, then the manual upload call;
 * - `portal-plugin`: org.sonatype.central:central-publishing-maven-plugin builds a bundle zip and
 *   sends it to the Publisher API itself.
 */
export type PublishingRoute = 'staging-api' | 'portal-plugin';

export const portalPluginArtifactId = 'central-publishing-maven-plugin';

/** The route the reactor's POMs (and its parent POM's text, when known) declare. Comments do not count. */
export function publishingRoute(pomTexts: readonly string[]): PublishingRoute {
  const declares = (text: string): boolean =>
    text.replace(/<!--[\s\S]*?-->/g, '').includes(`<artifactId>${portalPluginArtifactId}</artifactId>`);
  return pomTexts.some(declares) ? 'portal-plugin' : 'staging-api';
}

/**
 * The release:perform argument on the portal-plugin route: the plugin builds and signs the bundle
 * but does not upload it (its `skipUpload`), so relctl verifies the exact bundle before uploading
 * it. (`skipPublishing` would skip the bundle too.) A project whose release plugin configures its
 * own `<arguments>` overrides this; the plugin then uploads, and relctl reads the id it printed.
 */
export const bundleOnlyArgument = '-Darguments=-DskipUpload=true';

/** The deployment id in the plugin's log: `Uploaded bundle successfully, deployment name: N, deploymentId: <uuid>.` */
export function deploymentIdFromPluginLog(output: string): string | undefined {
  const ids = [...output.matchAll(/Uploaded bundle successfully, deployment name: .*?, deploymentId: ([0-9a-fA-F-]{36})/g)].map((m) => m[1]!);
  return ids.at(-1);
}

/** Where the plugin leaves the bundle: `<reactor root>/target/central-publishing/central-bundle.zip`. */
export const bundlePath = ['target', 'central-publishing', 'central-bundle.zip'] as const;
