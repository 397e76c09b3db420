/** Helpers shared by the Maven checks (pure). */
import type { Finding } from '../core/findings.js';
import type { Origin } from '../core/pom/index.js';
import type { MavenModuleFacts } from '../build-tools/maven/facts.js';
import type { ProjectFacts } from './facts.js';

export interface Location {
  file: string;
  line: number;
  module: string;
}

/**
 * Absent, or blank: written as whitespace, or a property that interpolates to nothing
 * (`<url>${site}</url>`). Maven Central's POM rules count such a value as missing.
 */
export function isBlank(value: string | undefined): boolean {
  return value === undefined || value.trim() === '';
}

export function isMaven(facts: ProjectFacts): boolean {
  return facts.maven !== undefined;
}

export function mavenModules(facts: ProjectFacts): readonly MavenModuleFacts[] {
  return facts.maven?.modules ?? [];
}

/**
 * False for a module the project keeps out of the upload (core/pom/uploaders.ts): by
 * `skipPublishing` where the Central Portal plugin uploads, otherwise by the deploy plugin's skip.
 * Never published, it is not held to the Central rules.
 */
export function isPublished(facts: ProjectFacts, module: MavenModuleFacts): boolean {
  if (module.skips === undefined) return true;
  // JReleaser (also portal-plugin) stages through maven-deploy: the deploy switch is its switch.
  const portalPlugin = facts.route?.kind === 'portal-plugin' && module.effective.plugins.some((p) => p.artifactId === 'central-publishing-maven-plugin' && !p.managed);
  return portalPlugin ? !module.skips.publishing : !module.skips.deploy;
}

/** The reactor's modules that are uploaded (isPublished). */
export function publishedModules(facts: ProjectFacts): readonly MavenModuleFacts[] {
  const all = mavenModules(facts);
  return all.some((m) => m.skips !== undefined) ? all.filter((m) => isPublished(facts, m)) : all;
}

/**
 * The published modules the metadata rules (name, description, url, licenses, scm, developers)
 * apply to: a relocation POM (`<distributionManagement><relocation>`) only points users at other
 * coordinates, so it carries no project metadata of its own (PomChecker skips it too).
 */
export function metadataModules(facts: ProjectFacts): readonly MavenModuleFacts[] {
  const published = publishedModules(facts);
  return published.some((m) => m.raw.relocation !== undefined) ? published.filter((m) => m.raw.relocation === undefined) : published;
}

/** The line of `<artifactId>` (or `<project>`), where something missing from a POM is reported. */
export function missingAt(module: MavenModuleFacts): Location {
  return { file: module.file, line: module.raw.artifactId?.line ?? module.raw.projectLine, module: module.effective.coords };
}

/**
 * Where an effective value is reported: the element itself when it is in a project file, else
 * the `<parent>` through which the module inherits it from outside the project.
 */
export function originAt(facts: ProjectFacts, module: MavenModuleFacts, origin: Origin): Location {
  if (origin.pom.file !== undefined) {
    const owner = modulesByFile(facts).get(origin.pom.file);
    return { file: origin.pom.file, line: origin.line, module: owner?.effective.coords ?? origin.pom.id.split(':').slice(0, 2).join(':') };
  }
  return module.exit ?? missingAt(module);
}

/** Describes where a value came from, for messages. */
export function fromWhere(origin: Origin, module: MavenModuleFacts): string {
  if (origin.pom.file === module.file) return `declared in ${module.file}`;
  return origin.pom.file !== undefined ? `inherited from ${origin.pom.file}` : `inherited from the parent POM ${origin.pom.id}`;
}

/**
 * True when a gap in an inheritable value is this module's to report: its parent is not a
 * module of this reactor (when it is, that parent reports the same gap once for all children).
 */
export function ownsInheritedGaps(facts: ProjectFacts, module: MavenModuleFacts): boolean {
  const parentFile = module.chain[1]?.file;
  if (parentFile === undefined) return true;
  // A parent that is not published does not report its gaps: each published child does.
  const parent = modulesByFile(facts).get(parentFile);
  return parent === undefined || !isPublished(facts, parent) || parent.raw.relocation !== undefined;
}

// Checks look modules up by file for every module; an index keeps a 1000-module reactor linear.
const indexes = new WeakMap<readonly MavenModuleFacts[], Map<string, MavenModuleFacts>>();
function modulesByFile(facts: ProjectFacts): Map<string, MavenModuleFacts> {
  const modules = mavenModules(facts);
  let index = indexes.get(modules);
  if (index === undefined) {
    index = new Map(modules.map((m) => [m.file, m]));
    indexes.set(modules, index);
  }
  return index;
}

/**
 * One finding per code, file and line: a value shared by many modules is reported once, by the
 * first module in reactor order (the POM that declares it comes before those inheriting it).
 */
export function dedupe(findings: Finding[]): Finding[] {
  const seen = new Set<string>();
  return findings.filter((f) => {
    const key = `${f.code}|${f.file ?? ''}|${f.line ?? ''}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export function at(location: Location): Pick<Finding, 'file' | 'line' | 'module'> {
  return { file: location.file, line: location.line, module: location.module };
}

export const legacyHosts = ['oss.sonatype.org', 's01.oss.sonatype.org'] as const;

/** The retired OSSRH host a URL names, if any (by host name; text search when it is not a URL). */
// Parsed once per distinct URL: every module of a reactor usually inherits the same one.
const legacyHostByUrl = new Map<string, string | undefined>();

export function legacyHostOf(url: string): string | undefined {
  if (legacyHostByUrl.has(url)) return legacyHostByUrl.get(url);
  const found = findLegacyHost(url);
  legacyHostByUrl.set(url, found);
  return found;
}

function findLegacyHost(url: string): string | undefined {
  let host: string | undefined;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    host = /(?:^|[/@])((?:s01\.)?oss\.sonatype\.org)(?:[:/]|$)/i.exec(url)?.[1]?.toLowerCase();
  }
  return legacyHosts.find((h) => h === host);
}

/** The release repository URL a project should use with this staging API service. */
/** Where Central takes snapshots (the staging API service does not: it stages releases only). */
export const CENTRAL_SNAPSHOTS_URL = 'https://central.sonatype.com/repository/maven-snapshots/';

/**
 * True when `url` is the portal's snapshot repository: Central's, or the one below the configured
 * portal URL (a sandbox). Another host's `maven-snapshots` (a company Nexus) is not the portal's.
 */
export function isPortalSnapshotsUrl(url: string, portalUrl?: string): boolean {
  const norm = (u: string): string => u.trim().replace(/\/+$/, '').toLowerCase();
  const own = portalUrl === undefined ? [] : [`${portalUrl.replace(/\/+$/, '')}/repository/maven-snapshots`];
  return [CENTRAL_SNAPSHOTS_URL, ...own].some((u) => norm(u) === norm(url));
}

export function expectedDeployUrl(stagingApiUrl: string): string {
  return `${stagingApiUrl.replace(/\/+$/, '')}/service/local/staging/deploy/maven2/`;
}
