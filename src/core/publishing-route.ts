/**
 * Which way a Maven release reaches the portal (a minimal detector; preflight's full route
 * detection can replace it):
 * - `staging-api`: maven-deploy-plugin PUTs to the OSSRH Staging API, then the manual upload call;
 * - `portal-plugin`: org.sonatype.central:central-publishing-maven-plugin builds a bundle zip and
 *   sends it to the Publisher API itself;
 * - `nexus-staging`: org.sonatype.plugins:nexus-staging-maven-plugin replaces deploy: it starts,
 *   fills and closes a staging repository through the Nexus 2 staging API (the close hands it to
 *   the portal as a deployment).
 */
export type PublishingRoute = 'staging-api' | 'portal-plugin' | 'nexus-staging';

export const portalPluginArtifactId = 'central-publishing-maven-plugin';
export const nexusStagingArtifactId = 'nexus-staging-maven-plugin';

/** The route the reactor's POMs (and its parent POM's text, when known) declare. Comments do not count. */
export function publishingRoute(pomTexts: readonly string[]): PublishingRoute {
  const texts = pomTexts.map((t) => t.replace(/<!--[\s\S]*?-->/g, ''));
  if (texts.some((t) => t.includes(`<artifactId>${portalPluginArtifactId}</artifactId>`))) return 'portal-plugin';
  return nexusStagingDeploys(texts) ? 'nexus-staging' : 'staging-api';
}

/**
 * nexus-staging-maven-plugin takes over deploy: declared in `<plugins>` somewhere (not only in
 * `<pluginManagement>`), and some declaration of it (there or its management entry, which may sit
 * in another POM of the chain) has `<extensions>true</extensions>` or binds its `deploy` goal.
 */
function nexusStagingDeploys(texts: readonly string[]): boolean {
  const declarations = texts.flatMap((t) => [...t.matchAll(/<plugin>((?:(?!<\/plugin>)[\s\S])*?<artifactId>\s*nexus-staging-maven-plugin\s*<\/artifactId>[\s\S]*?)<\/plugin>/g)].map((m) => m[1]!));
  const applied = texts.some((t) => t.replace(/<pluginManagement>[\s\S]*?<\/pluginManagement>/g, '').includes(`<artifactId>${nexusStagingArtifactId}</artifactId>`));
  return applied && declarations.some((d) => /<extensions>\s*true\s*<\/extensions>/.test(d) || /<goal>\s*deploy\s*<\/goal>/.test(d));
}

/**
 * The release:perform argument on the nexus-staging route: the plugin stages locally (its
 * `skipRemoteStaging`, into `target/nexus-staging/staging/<profile>/`) instead of uploading, so
 * relctl verifies those very files before the plugin's `deploy-staged` uploads and closes them.
 * A project whose release plugin configures its own `<arguments>` overrides this; the plugin then
 * uploads and closes during the build, and relctl follows the repository it printed.
 */
export const nexusLocalStagingArgument = '-Darguments=-DskipRemoteStaging=true';

/** The goal that uploads what the plugin staged locally, then closes (and, when configured, releases) it. */
export const nexusDeployStagedGoal = 'nexus-staging:deploy-staged';

/** The staging repository ids the plugin printed: ` * Created staging repository with ID "<id>".` */
export function stagingRepositoryIdsFromPluginLog(output: string): string[] {
  return [...new Set([...output.matchAll(/Created staging repository with ID "([^"\s]+)"/g)].map((m) => m[1]!))];
}

/**
 * The staging repository id in the context file the plugin leaves beside its local staging folder
 * once remote staging ran (`<profile>.properties`: `stagingRepository.id=<id>`).
 */
export function stagingRepositoryIdFromContext(properties: string): string | undefined {
  return /^stagingRepository\.id\s*[=:]\s*(\S+)\s*$/m.exec(properties)?.[1];
}

/** The portal names a deployment made by a close `"<repository id> (via OSSRH API Proxy)"`. */
export function deploymentNameMatches(deploymentName: string | undefined, repositoryId: string): boolean {
  return deploymentName !== undefined && (deploymentName === repositoryId || deploymentName.startsWith(`${repositoryId} `));
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
