/**
 * The nexus-staging route's clients (DESIGN §4): nexus-staging-maven-plugin, gradle-nexus,
 * io.codearte.nexus-staging and JReleaser's nexus2 deployer, and what each is told. Pure; used by
 * the route detection (route.ts).
 */
import { takesOverDeploy, type EffectivePlugin } from '../core/pom/index.js';
import type { GradleRepositoryFact } from '../build-tools/gradle/facts.js';
import type { ProjectFacts } from './facts.js';
import type { NexusStagingClient, RouteEvidence, RouteKind } from './route-types.js';
import { urlTarget } from './publishing-hosts.js';

/** nexus-staging-maven-plugin's own defaults of the two settings the route shows. */
export const nexusStagingDefaults = { autoReleaseAfterClose: 'false', stagingProgressTimeoutMinutes: '5' } as const;

/** `autoReleaseAfterClose false, stagingProgressTimeoutMinutes 5 (default)`: what the route evidence shows. */
export function nexusSettingsText(c: Pick<NexusStagingClient, 'autoReleaseAfterClose' | 'stagingProgressTimeoutMinutes' | 'tool'>): string {
  if (c.tool !== 'nexus-staging-maven-plugin') return '';
  const release = c.autoReleaseAfterClose ?? `${nexusStagingDefaults.autoReleaseAfterClose} (default)`;
  const timeout = c.stagingProgressTimeoutMinutes ?? `${nexusStagingDefaults.stagingProgressTimeoutMinutes} (default)`;
  return `autoReleaseAfterClose ${release}, stagingProgressTimeoutMinutes ${timeout}`;
}

/**
 * nexus-staging-maven-plugin: where it deploys (`<extensions>true` or its `deploy` goal bound), its
 * `<nexusUrl>` decides the route: the staging API host is the nexus-staging route, a retired host
 * is legacy-ossrh. Declared without deploying, its `<nexusUrl>` still shows where the project
 * thinks it publishes (a leftover pointing at a retired host is a live problem).
 */
export function nexusPlugin(out: { add(kind: RouteKind, e: RouteEvidence): void }, clients: NexusStagingClient[], stagingApiUrl: string, p: EffectivePlugin, at: { file: string; line: number }, where: string): void {
  const deploys = takesOverDeploy(p);
  const url = configValue(p, 'nexusUrl');
  // The <nexusUrl> may be written in a <pluginManagement> entry, possibly in another POM.
  const origin = url === undefined ? undefined : (url.from ?? { pom: p.origin.pom, line: url.line });
  const { file, line } = origin?.pom.file !== undefined ? { file: origin.pom.file, line: origin.line } : at;
  const target = url === undefined ? undefined : urlTarget(url.value, stagingApiUrl);
  if (deploys && (target === undefined || target === 'staging' || target === 'central-unknown')) {
    const client: NexusStagingClient = { tool: 'nexus-staging-maven-plugin', file, line };
    if (url !== undefined) client.nexusUrl = url.value;
    const serverId = configValue(p, 'serverId')?.value;
    if (serverId !== undefined) client.serverId = serverId;
    const release = configValue(p, 'autoReleaseAfterClose')?.value;
    if (release !== undefined) client.autoReleaseAfterClose = release;
    const timeout = configValue(p, 'stagingProgressTimeoutMinutes')?.value;
    if (timeout !== undefined) client.stagingProgressTimeoutMinutes = timeout;
    if (!clients.some((c) => c.file === file && c.line === line)) clients.push(client);
    const how = url === undefined ? 'without a <nexusUrl>' : `through <nexusUrl> ${url.value}`;
    out.add('nexus-staging', { file, line, why: `nexus-staging-maven-plugin stages and closes ${how} (and releases when autoReleaseAfterClose is true)${where}; ${nexusSettingsText(client)}` });
    return;
  }
  if (url === undefined) return;
  const why = `nexus-staging-maven-plugin <nexusUrl> ${url.value}${where}`;
  if (target === 'legacy') out.add('legacy-ossrh', { file, line, why: `${why} is a retired OSSRH host` });
  else if (target === 'staging') out.add('staging-api', { file, line, why: `${why} is the staging API service` });
  else if (target === 'other') out.add('other', { file, line, why: `${why} is not Maven Central` });
}

/** JReleaser's nexus2 deployer, from the plugin's configuration or the jreleaser file, with its url. */
export function jreleaserNexus2(p: EffectivePlugin, facts: ProjectFacts): { file?: string; line: number; url?: string } | undefined {
  const inConfig = p.config.filter((c) => /(^|\/)nexus2(\/|$)/.test(c.path));
  if (inConfig.length > 0) {
    const url = inConfig.find((c) => /\/url$/.test(c.path));
    const first = url ?? inConfig[0]!;
    const origin = first.from ?? { pom: p.origin.pom, line: first.line };
    return { ...(origin.pom.file === undefined ? {} : { file: origin.pom.file }), line: origin.line, ...(url === undefined ? {} : { url: url.value }) };
  }
  return facts.jreleaserNexus2File;
}

/** Which Nexus 2 staging client a Gradle publishing URL belongs to, if any. */
export function nexusClientOf(r: GradleRepositoryFact): NexusStagingClient['tool'] | undefined {
  if (r.jreleaserNexus2 === true) return 'jreleaser-nexus2';
  if (r.nexusStaging === true) return 'io.codearte.nexus-staging';
  if (r.nexus === true) return 'gradle-nexus';
  return undefined;
}

export const nexusClientWords: Record<NexusStagingClient['tool'], string> = {
  'nexus-staging-maven-plugin': 'the plugin stages, closes and may release',
  'gradle-nexus': 'gradle-nexus starts, fills and closes a staging repository (closeAndReleaseSonatypeStagingRepository releases it)',
  'io.codearte.nexus-staging': 'the plugin closes and releases the staging repository',
  'jreleaser-nexus2': "JReleaser's nexus2 deployer stages, closes and (releaseRepository) releases",
};


/** A plugin's configuration value by name, at any depth of its configuration. */
export function configValue(p: EffectivePlugin, name: string): EffectivePlugin['config'][number] | undefined {
  return p.config.find((c) => c.path === name || c.path.endsWith(`/${name}`));
}
