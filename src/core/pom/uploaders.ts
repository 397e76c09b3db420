/**
 * Whether a module is left out of the upload on purpose (examples, benchmarks, test suites, a
 * top-level aggregator): the Central rules do not apply to a POM that is never published.
 * Each uploader has its own switch, and none honours another's:
 * - maven-deploy-plugin: `<skip>` in its configuration, or the `maven.deploy.skip` property;
 * - nexus-staging-maven-plugin (when it replaces deploy): `skipNexusStagingDeployMojo`;
 * - central-publishing-maven-plugin: `skipPublishing` (configuration or property); it ignores
 *   `maven.deploy.skip`, so a module with only that switch is still published; its
 *   `<excludeArtifacts>` (artifactIds) leaves modules out of the bundle too.
 */
import type { EffectivePlugin, EffectivePom } from './effective.js';
import { interpolate } from './interpolate.js';

export interface DeploySkips {
  /** Skipped by maven-deploy-plugin (or nexus-staging-maven-plugin when that one deploys). */
  deploy: boolean;
  /** Skipped by central-publishing-maven-plugin. */
  publishing: boolean;
}

function isTrue(value: string | undefined, eff: EffectivePom): boolean {
  if (value === undefined) return false;
  const v = value.includes('${') ? interpolate(value, (n) => eff.properties.get(n)) : value;
  return v.trim() === 'true';
}

/** The switch a plugin's configuration sets, nearest declaration first (profiles left out unless asked). */
function pluginSwitch(eff: EffectivePom, artifactId: string, name: string, inProfiles: boolean): string | undefined {
  for (const p of eff.plugins) {
    if (p.artifactId !== artifactId || (!inProfiles && p.profile !== undefined)) continue;
    const c = p.config.find((x) => x.path === name);
    if (c !== undefined) return c.value;
  }
  return undefined;
}

/**
 * nexus-staging-maven-plugin when it takes over `deploy` (declared with `<extensions>true</extensions>`,
 * or with an `<execution>` binding its `deploy` goal; a release profile included): it uploads
 * releases to its own `<nexusUrl>` with the `<server>` named by `<serverId>`, and
 * `distributionManagement`'s release repository is not used.
 */
export function stagingPluginDeployer(eff: EffectivePom): EffectivePlugin | undefined {
  return eff.plugins.find(takesOverDeploy);
}

/** Whether this plugin entry is nexus-staging-maven-plugin taking over `deploy` (see stagingPluginDeployer). */
export function takesOverDeploy(p: EffectivePlugin): boolean {
  return p.artifactId === 'nexus-staging-maven-plugin' && !p.managed && (p.extensions || (p.goals ?? []).includes('deploy'));
}

export function deploySkips(eff: EffectivePom): DeploySkips {
  const deploy = stagingPluginDeployer(eff) !== undefined
    ? isTrue(pluginSwitch(eff, 'nexus-staging-maven-plugin', 'skipNexusStagingDeployMojo', true) ?? eff.properties.get('skipNexusStagingDeployMojo'), eff)
    : isTrue(pluginSwitch(eff, 'maven-deploy-plugin', 'skip', false) ?? eff.properties.get('maven.deploy.skip'), eff);
  // The Central Portal plugin usually lives in a release profile: its switch counts there too.
  const publishing =
    isTrue(pluginSwitch(eff, 'central-publishing-maven-plugin', 'skipPublishing', true) ?? eff.properties.get('skipPublishing'), eff) ||
    excludedFromBundle(eff);
  return { deploy, publishing };
}

/** The module's artifactId is listed in the Central Portal plugin's `<excludeArtifacts>`. */
function excludedFromBundle(eff: EffectivePom): boolean {
  if (eff.artifactId === undefined) return false;
  return eff.plugins.some((p) => p.artifactId === 'central-publishing-maven-plugin' && p.config.some((c) => c.path === 'excludeArtifacts/excludeArtifact' && c.value === eff.artifactId));
}
