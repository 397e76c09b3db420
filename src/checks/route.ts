/**
 * The publishing route (DESIGN §4): how the project publishes decides which distribution rules
 * apply. Pure: computed once from the gathered facts, then read by the checks and the renderers.
 */
import type { EffectivePlugin } from '../core/pom/index.js';
import type { MavenModuleFacts } from '../build-tools/maven/facts.js';
import type { GradleFacts, GradleRepositoryFact } from '../build-tools/gradle/facts.js';
import type { ProjectFacts } from './facts.js';
import { urlTarget } from './publishing-hosts.js';
import { stagingPluginDeployer } from '../core/pom/index.js';
import { configValue, jreleaserNexus2, nexusClientOf, nexusClientWords, nexusPlugin } from './route-nexus.js';
import type { NexusStagingClient, PortalServer, PublishingRoute, RouteEvidence, RouteKind } from './route-types.js';

// When several routes show, the one that decides the upload wins: a Central Portal plugin
// replaces deploy; a retired host left anywhere is a live problem; then the staging service.
// A Nexus 2 staging client replaces deploy too, so it wins over a deploy URL.
const precedence: RouteKind[] = ['portal-plugin', 'legacy-ossrh', 'nexus-staging', 'staging-api', 'other'];

class Collector {
  readonly byKind = new Map<RouteKind, RouteEvidence[]>();
  private readonly seen = new Set<string>();
  add(kind: RouteKind, e: RouteEvidence): void {
    const key = `${kind}|${e.file}|${e.line}|${e.why}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    const list = this.byKind.get(kind) ?? [];
    list.push(e);
    this.byKind.set(kind, list);
  }
  route(): PublishingRoute {
    for (const kind of precedence) {
      const evidence = this.byKind.get(kind);
      if (evidence !== undefined) return { kind, evidence };
    }
    return { kind: 'unknown', evidence: [] };
  }
}

export function detectRoute(facts: ProjectFacts): PublishingRoute {
  if (facts.maven !== undefined) return mavenRoute(facts);
  if (facts.gradle !== undefined) return gradleRoute(facts.gradle, facts.jreleaserFile, facts.jreleaserNexus2File);
  return { kind: 'unknown', evidence: [] };
}

export function routeKind(facts: ProjectFacts): RouteKind {
  return facts.route?.kind ?? 'unknown';
}

/**
 * Routes whose upload does not go through `distributionManagement` / a publishing repository.
 * (On nexus-staging, Maven's per-module checks skip the modules the plugin deploys, see
 * stagingPluginDeployer, and judge its <nexusUrl> instead; Gradle's nexus URLs are its
 * publishing repositories.)
 */
export function ignoresDistribution(facts: ProjectFacts): boolean {
  const kind = routeKind(facts);
  return kind === 'portal-plugin' || kind === 'other';
}

/** On `other` the Central-only rules (metadata, developers, packaging, distribution URL) do not apply. */
export function centralRulesApply(facts: ProjectFacts): boolean {
  return routeKind(facts) !== 'other';
}

function pluginAt(module: MavenModuleFacts, p: EffectivePlugin): { file: string; line: number } {
  if (p.origin.pom.file !== undefined) return { file: p.origin.pom.file, line: p.origin.line };
  return module.exit ?? { file: module.file, line: module.raw.projectLine };
}

/**
 * Where central-publishing-maven-plugin is configured when only `<pluginManagement>` has it (no
 * module's `<plugins>` uses it, so no build runs it: Bedework's parent before its tag 200); undefined otherwise.
 */
export function portalPluginManagedOnly(facts: ProjectFacts): { file: string; line: number } | undefined {
  let managed: { file: string; line: number } | undefined;
  for (const module of facts.maven?.modules ?? []) {
    for (const p of module.effective.plugins) {
      if (p.artifactId !== 'central-publishing-maven-plugin') continue;
      if (!p.managed) return undefined;
      managed ??= pluginAt(module, p);
    }
  }
  return managed;
}

/**
 * A deploy-URL fix, led by the maintainers' own path when the portal plugin is configured but only
 * managed: activate it (it then needs no distribution or staging URL at all), or else the fix.
 */
export function activateManagedPortalPluginFirst(facts: ProjectFacts, fix: string): string {
  const at = portalPluginManagedOnly(facts);
  if (at === undefined) return fix;
  return `Activate central-publishing-maven-plugin in <build><plugins>: it is configured in <pluginManagement> only (${at.file}:${at.line}), so no build uses it; <plugin><groupId>org.sonatype.central</groupId><artifactId>central-publishing-maven-plugin</artifactId><extensions>true</extensions></plugin> there takes that configuration and uploads to the Central Portal. Otherwise: ${fix}`;
}

function mavenRoute(facts: ProjectFacts): PublishingRoute {
  const maven = facts.maven!;
  const out = new Collector();
  const servers: PortalServer[] = [];
  const clients: NexusStagingClient[] = [];
  const serverKeys = new Set<string>();
  const judged = new Set<string>();
  for (const module of maven.modules) {
    for (const p of module.effective.plugins) {
      const at = pluginAt(module, p);
      const where = p.profile === undefined ? '' : ` (profile ${p.profile})`;
      // Declared in <plugins> (pluginManagement alone configures, it does not apply a plugin or its extensions).
      // It takes over `deploy` only as a build extension; without <extensions>true</extensions> or an
      // execution of its own, maven-deploy-plugin still deploys to <distributionManagement>.
      if (p.artifactId === 'central-publishing-maven-plugin' && !p.managed && (p.extensions || p.executes === true)) {
        out.add('portal-plugin', { ...at, why: `central-publishing-maven-plugin uploads to the Central Portal${where}` });
        const id = configValue(p, 'publishingServerId');
        const server: PortalServer = { id: id?.value ?? 'central', ...at, module: module.effective.coords };
        // The id may be written in the plugin's <pluginManagement> entry, possibly in another POM.
        const idAt = id === undefined ? undefined : (id.from ?? { pom: p.origin.pom, line: id.line });
        if (idAt?.pom.file !== undefined) Object.assign(server, { file: idAt.pom.file, line: idAt.line });
        const key = `${server.id}|${server.file}|${server.line}`;
        if (!serverKeys.has(key)) {
          serverKeys.add(key);
          servers.push(server);
        }
      } else if (p.artifactId === 'jreleaser-maven-plugin' && !p.managed && jreleaserNexus2(p, facts) !== undefined) {
        const n = jreleaserNexus2(p, facts)!;
        const place = n.file === undefined ? at : { file: n.file, line: n.line };
        const target = n.url === undefined ? undefined : urlTarget(n.url, maven.stagingApiUrl);
        const why = `JReleaser's nexus2 deployer${n.url === undefined ? '' : ` url ${n.url}`}${where}`;
        if (target === 'legacy') out.add('legacy-ossrh', { ...place, why: `${why} is a retired OSSRH host` });
        else if (target === 'other') out.add('other', { ...place, why: `${why} is not Maven Central` });
        else {
          out.add('nexus-staging', { ...place, why: `${why}: it stages, closes and (releaseRepository) releases through the Nexus 2 staging API` });
          if (!clients.some((c) => c.file === place.file && c.line === place.line)) clients.push({ tool: 'jreleaser-nexus2', ...place, ...(n.url === undefined ? {} : { nexusUrl: n.url }) });
        }
      } else if (p.artifactId === 'jreleaser-maven-plugin' && !p.managed && (p.config.some((c) => /(^|\/)mavenCentral$/.test(c.path)) || facts.jreleaserFile !== undefined)) {
        out.add('portal-plugin', { ...(facts.jreleaserFile ?? at), why: `JReleaser's Maven Central deployer uploads to the Central Portal${where}` });
      } else if (p.artifactId === 'nexus-staging-maven-plugin') {
        nexusPlugin(out, clients, maven.stagingApiUrl, p, at, where);
      }
    }
    // The release repository is not used where nexus-staging-maven-plugin deploys instead.
    if (stagingPluginDeployer(module.effective) !== undefined) continue;
    const repo = module.effective.repository;
    const url = repo?.url;
    if (url === undefined) continue;
    // A reactor's modules share one inherited URL: judge each declaration once.
    const seenKey = `${url.origin.pom.id}|${url.origin.line}|${url.value}|${module.exit?.file ?? ''}`;
    if (judged.has(seenKey)) continue;
    judged.add(seenKey);
    const at = url.origin.pom.file !== undefined ? { file: url.origin.pom.file, line: url.origin.line } : (module.exit ?? { file: module.file, line: module.raw.projectLine });
    const target = urlTarget(url.value, maven.stagingApiUrl, repo?.id?.value);
    const why = `distributionManagement release repository ${url.value}`;
    if (target === 'legacy') out.add('legacy-ossrh', { ...at, why: `${why} is a retired OSSRH host` });
    else if (target === 'staging') out.add('staging-api', { ...at, why: `${why} is the staging API service` });
    else if (target === 'other') out.add('other', { ...at, why: `${why} is not Maven Central` });
  }
  const route = out.route();
  if (route.kind === 'portal-plugin') route.portalServers = servers;
  if (route.kind === 'nexus-staging') route.nexusClients = clients;
  if (route.kind === 'unknown') {
    // Say why it is unknown when a parent that would usually decide it could not be read.
    const cut = maven.modules.find((m) => m.parentUnresolved === true && m.exit !== undefined);
    if (cut?.exit !== undefined) route.evidence.push({ file: cut.exit.file, line: cut.exit.line, why: 'the parent POM, which usually decides how a project publishes, could not be read' });
  }
  return route;
}

/** `0.32.0` < `0.33.0`: compares the leading numbers of two plugin versions. */
function versionBefore(version: string, bound: readonly number[]): boolean {
  const parts = version.split(/[.-]/).map((x) => Number.parseInt(x, 10));
  for (let i = 0; i < bound.length; i++) {
    const a = Number.isNaN(parts[i]!) || parts[i] === undefined ? 0 : parts[i]!;
    if (a !== bound[i]) return a < bound[i]!;
  }
  return false;
}

/**
 * Which host the vanniktech plugin uploads to, or undefined when it is not told to publish to
 * Maven Central. From its CHANGELOG: before 0.21.0 the main plugin added oss.sonatype.org by
 * itself; from 0.21.0 only `publishToMavenCentral(...)` or `SONATYPE_HOST` add a Central target;
 * 0.28.0 added the Central Portal (`SonatypeHost.CENTRAL_PORTAL` / `SONATYPE_HOST=CENTRAL_PORTAL`);
 * 0.30.0 accepts an https URL in `SONATYPE_HOST`; up to 0.32.x `publishToMavenCentral()` without
 * a host means `SonatypeHost.DEFAULT` (oss.sonatype.org); 0.33.0 (2025-06-22) made it mean the
 * Central Portal and added `mavenCentralPublishing=true`; 0.34.0 removed `SonatypeHost` and the
 * OSSRH hosts (`SONATYPE_HOST` accepts only CENTRAL_PORTAL).
 */
function vanniktechTarget(g: GradleFacts, id: string, version: string | undefined): { kind: RouteKind; why: string; weak?: true } | undefined {
  const dsl = g.publishing.centralHost?.host ?? '';
  const prop = g.publishing.sonatypeHost?.value ?? '';
  const chosen = dsl !== '' ? dsl : prop;
  const v = version === undefined ? 'an unknown version' : version;
  const before033 = version !== undefined && versionBefore(version, [0, 33, 0]);
  // Neither publishToMavenCentral(...), SONATYPE_HOST nor mavenCentralPublishing: since 0.21.0 the
  // plugin adds no Maven Central repository at all (the base plugin never did); only the main
  // plugin before 0.21.0 added oss.sonatype.org by itself.
  const told = g.publishing.centralHost !== undefined || prop !== '' || (g.publishing.mavenCentralPublishing !== undefined && !before033);
  if (!told) {
    const oldMain = id === 'com.vanniktech.maven.publish' && version !== undefined && versionBefore(version, [0, 21, 0]);
    // From 0.33.0 its Central target is the Portal: a guess when nothing else shows the route.
    if (!before033 && !oldMain) return { kind: 'portal-plugin', why: `com.vanniktech.maven.publish (${v}) publishes to Maven Central through the Central Portal when told to`, weak: true };
    if (!oldMain) return undefined;
    return { kind: 'legacy-ossrh', why: `com.vanniktech.maven.publish ${version} adds oss.sonatype.org by default (before 0.21.0); upgrade to 0.33.0 or later` };
  }
  // mavenCentralPublishing=true only exists from 0.33.0 on; older versions ignore it.
  if (/^CENTRAL_PORTAL$/i.test(chosen) || (chosen === '' && g.publishing.mavenCentralPublishing !== undefined && !before033)) {
    return { kind: 'portal-plugin', why: `com.vanniktech.maven.publish (${v}) publishes through the Central Portal` };
  }
  if (/^(DEFAULT|S01)$/i.test(chosen)) {
    return { kind: 'legacy-ossrh', why: `com.vanniktech.maven.publish is told SonatypeHost ${chosen.toUpperCase()}, a retired OSSRH host` };
  }
  if (/^https?:/i.test(chosen)) {
    const target = urlTarget(chosen, g.stagingApiUrl);
    if (target === 'legacy') return { kind: 'legacy-ossrh', why: `com.vanniktech.maven.publish SONATYPE_HOST ${chosen} is a retired OSSRH host` };
    if (target === 'staging') return { kind: 'staging-api', why: `com.vanniktech.maven.publish SONATYPE_HOST ${chosen} is the staging API service` };
    return { kind: 'other', why: `com.vanniktech.maven.publish SONATYPE_HOST ${chosen} is not Maven Central` };
  }
  if (before033) {
    // SONATYPE_HOST=CENTRAL_PORTAL only exists from 0.28.0 on.
    const next = versionBefore(version, [0, 28, 0]) ? 'upgrade to 0.33.0 or later' : 'set SONATYPE_HOST=CENTRAL_PORTAL or upgrade';
    return { kind: 'legacy-ossrh', why: `com.vanniktech.maven.publish ${version} defaults to oss.sonatype.org (the Central Portal is the default from 0.33.0); ${next}` };
  }
  return { kind: 'portal-plugin', why: `com.vanniktech.maven.publish (${v}) defaults to the Central Portal` };
}

/** How the route evidence names where a Gradle publishing URL is set. */
function repositoryLabel(r: GradleRepositoryFact): string {
  if (r.jreleaserNexus2 === true) return `JReleaser nexus2 ${r.kind === 'release' ? 'url' : 'snapshotUrl'} ${r.url}`;
  if (r.nexusStaging === true) return `io.codearte.nexus-staging serverUrl ${r.url}${r.implicit === true ? ' (its default)' : ''}`;
  if (r.implicit === true) return "the nexus publish plugin's default for sonatype()";
  if (r.nexus === true) return `nexusPublishing ${r.kind === 'release' ? 'nexusUrl' : 'snapshotRepositoryUrl'} ${r.url}`;
  return `publishing repository ${r.url}`;
}

function gradleRoute(g: GradleFacts, jreleaserFile: { file: string; line: number } | undefined, nexus2File?: { file: string; line: number; url?: string }): PublishingRoute {
  const out = new Collector();
  const legacyPluginHosts: RouteEvidence[] = [];
  const clients: NexusStagingClient[] = [];
  const weak: RouteEvidence[] = [];
  const hostSetting = g.publishing.sonatypeHost ?? g.publishing.mavenCentralPublishing;
  const hostAt = g.publishing.centralHost ?? (hostSetting?.file !== undefined ? { file: hostSetting.file, line: hostSetting.line ?? 0 } : undefined);
  for (const project of g.projects) {
    for (const p of project.plugins) {
      const at = { file: p.file, line: p.line };
      if (p.id === 'com.vanniktech.maven.publish' || p.id === 'com.vanniktech.maven.publish.base') {
        const t = vanniktechTarget(g, p.id, p.version ?? g.publishing.vanniktechVersion);
        if (t === undefined) continue; // not told to publish to Maven Central
        const e = { ...(hostAt ?? at), why: t.why };
        if (t.weak === true) {
          weak.push(e);
          continue;
        }
        out.add(t.kind, e);
        if (t.kind === 'legacy-ossrh' && !legacyPluginHosts.some((x) => x.file === e.file && x.line === e.line)) legacyPluginHosts.push(e);
      } else if (p.id.startsWith('com.gradleup.nmcp')) {
        out.add('portal-plugin', { ...at, why: `${p.id} uploads to the Central Portal` });
      } else if (p.id === 'org.jreleaser' && nexus2File !== undefined) {
        // JReleaser's nexus2 deployer configured in jreleaser.yml/.toml/.json (the DSL's is a repository below).
        const target = nexus2File.url === undefined ? undefined : urlTarget(nexus2File.url, g.stagingApiUrl);
        const why = `JReleaser's nexus2 deployer${nexus2File.url === undefined ? '' : ` url ${nexus2File.url}`}`;
        const place = { file: nexus2File.file, line: nexus2File.line };
        if (target === 'legacy') out.add('legacy-ossrh', { ...place, why: `${why} is a retired OSSRH host` });
        else if (target === 'other') out.add('other', { ...place, why: `${why} is not Maven Central` });
        else {
          out.add('nexus-staging', { ...place, why: `${why}: ${nexusClientWords['jreleaser-nexus2']}` });
          if (!clients.some((c) => c.file === place.file && c.line === place.line)) clients.push({ tool: 'jreleaser-nexus2', ...place, ...(nexus2File.url === undefined ? {} : { nexusUrl: nexus2File.url }) });
        }
      } else if (p.id === 'org.jreleaser' && (g.publishing.jreleaserMavenCentral ?? jreleaserFile) !== undefined) {
        out.add('portal-plugin', { ...(g.publishing.jreleaserMavenCentral ?? jreleaserFile)!, why: "JReleaser's Maven Central deployer uploads to the Central Portal" });
      }
    }
    for (const r of project.repositories) {
      const target = urlTarget(r.url, g.stagingApiUrl, r.name);
      const what = repositoryLabel(r);
      if (target === 'legacy') out.add('legacy-ossrh', { file: r.file, line: r.line, why: `${what} is a retired OSSRH host` });
      else if (r.kind !== 'release') continue;
      else if (target === 'staging' && nexusClientOf(r) !== undefined) {
        // A Nexus 2 staging client: it starts, fills and closes its own staging repository.
        out.add('nexus-staging', { file: r.file, line: r.line, why: `${what} is the staging API service; ${nexusClientWords[nexusClientOf(r)!]}` });
        if (!clients.some((c) => c.file === r.file && c.line === r.line)) clients.push({ tool: nexusClientOf(r)!, file: r.file, line: r.line, nexusUrl: r.url });
      } else if (target === 'staging') out.add('staging-api', { file: r.file, line: r.line, why: `${what} is the staging API service` });
      else if (target === 'other') out.add('other', { file: r.file, line: r.line, why: `${what} is not Maven Central` });
    }
  }
  if (out.byKind.size === 0) for (const e of weak) out.add('portal-plugin', e);
  const route = out.route();
  if (legacyPluginHosts.length > 0) route.legacyPluginHosts = legacyPluginHosts;
  if (route.kind === 'nexus-staging') route.nexusClients = clients;
  return route;
}
