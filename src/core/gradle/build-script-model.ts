import type { PomEntry } from './pom-entries.js';
import type { Block } from './statements.js';

// What parseBuildScript reads from one Gradle build script, and the plugins' default hosts.

/** Where an applied plugin takes effect, seen from the script that applies it. */
export type PluginScope = { kind: 'self' } | { kind: 'subprojects' } | { kind: 'allprojects' } | { kind: 'project'; path: string };

export interface AppliedPlugin {
  /** Normalised id: `war` for `org.gradle.war`, `WarPlugin` and `` `war` ``. */
  id: string;
  line: number;
  scope: PluginScope;
  /** `version "0.28.0"` in the plugins block. */
  version?: string;
  /** A version-catalog alias (`libs.plugins.gretty`): `id` is the alias until the gatherer resolves it. */
  alias?: string;
}

/** How the vanniktech plugin's `publishToMavenCentral(...)` names its host. */
export interface CentralHostCall {
  /** `CENTRAL_PORTAL`, `DEFAULT`, `S01`, a URL, or '' when called without a host. */
  host: string;
  line: number;
}

/** A property or environment variable a build script reads (in-memory signing keys). */
export interface ScriptReference {
  name: string;
  env: boolean;
}

/**
 * One credential (username or password) of a publishing target: any one of `refs` being set
 * satisfies it (`a ?: b`); `refs` empty means the expression is not readable here (a literal, a
 * helper call), and preflight stays quiet about it.
 */
export interface CredentialExpression {
  refs: ScriptReference[];
  line: number;
}

/** A publishing target's credentials as the script configures them (credential-sources.ts reads them). */
export interface CredentialSource {
  /** What reads them: `credentials`, `nexusPublishing`, `nmcp`, `jreleaser`. */
  kind: 'credentials' | 'nexusPublishing' | 'nmcp' | 'jreleaser';
  line: number;
  /** The repository block (`maven`, `sonatype`, ...) they belong to, when there is one. */
  block?: Block;
  /** That repository's URL, when the script names it (credentials for another host are not Central's). */
  url?: string;
  username?: CredentialExpression;
  password?: CredentialExpression;
}

export type RepositoryKind = 'release' | 'snapshot';

export interface RepositoryUrl {
  url: string;
  kind: RepositoryKind;
  line: number;
  /** The variable or Gradle property the URL came from, when not written inline. */
  via?: string;
  /** Not written at all: the gradle-nexus publish plugin's `sonatype()` default. */
  implicit?: boolean;
  /** A nexus-publish plugin `nexusUrl`/`snapshotRepositoryUrl` (a service base, not a deploy path). */
  nexus?: boolean;
  /** `maven { name = 'nexus' }`: the repository's name, Gradle's counterpart of a Maven repository id. */
  name?: string;
  /** The Codearte nexus-staging plugin's `serverUrl` (or, implicit, its default). */
  nexusStaging?: boolean;
  /** Written as the default of a property test: setting this Gradle property replaces it. */
  property?: string;
  /** A JReleaser `nexus2` deployer's `url` / `snapshotUrl`. */
  jreleaserNexus2?: boolean;
  /** That nexus repository's name (`sonatype`): the plugin reads its credentials from `<name>Username`/`<name>Password`. */
  nexusRepository?: string;
}

export interface BuildScript {
  plugins: AppliedPlugin[];
  /** Publishing repository URLs (maven-publish, the legacy `maven` plugin, nexus-publish). */
  repositories: RepositoryUrl[];
  version?: { value: string; line: number };
  /** `version = <expression>` at the top level: set at build time, not readable here. */
  versionComputed?: number;
  /** What computes it, for saying why the version checks did not run (`the environment variable RELEASE_VERSION`). */
  versionComputedHow?: string;
  /** `version = projectVersion` (Groovy): the name read, a Gradle property when gradle.properties has it. */
  versionName?: { name: string; line: number };
  /** `version = file('version.txt').text.trim()`: the version is that file's content. */
  versionFile?: { path: string; fromRoot: boolean; line: number };
  /** `version = providers.gradleProperty("x").get()` and the like: the Gradle property it reads. */
  versionProperty?: { name: string; line: number };
  /** vanniktech `coordinates("g", "a", "1.2.3")` (or `version = "1.2.3"` named): the version it publishes. */
  coordinatesVersion?: { value: string; line: number };
  /** `version = libs.versions.x.get()`: the catalog version accessor (`x`). */
  versionCatalogKey?: { key: string; line: number };
  /** Plugins block entries with `apply false`: the versions projects applying them by bare id get. */
  declaredPlugins: { id?: string; alias?: string; version?: string }[];
  /** A top-level `war { ... }` block configures the war task: the war plugin is applied (Gradle fails otherwise). */
  warTask?: number;
  /** URLs this script sets as extra properties (`ext.releaseRepo = '...'`), by name: applied scripts and subprojects read them. */
  extUrls?: Record<string, string>;
  /** Extra properties set from a JVM system property (`ext { user = System.getProperty('user') }`), by name: `systemProp.<x>` supplies them, not `<name>`. */
  extSystemProperties?: Record<string, string>;
  group?: { value: string; line: number };
  /** `release { tagTemplate = '...' }` of the Gradle release plugin. */
  tagTemplate?: string;
  /** Script plugins: `apply from: 'gradle/publish.gradle'`, read by the gatherer. */
  appliedScripts: AppliedScript[];
  /** vanniktech `mavenPublishing { publishToMavenCentral(...) }`. */
  centralHost?: CentralHostCall;
  /** `com.vanniktech:gradle-maven-publish-plugin:X` on a classpath or in buildSrc dependencies: X. */
  vanniktechVersion?: string;
  /** JReleaser `jreleaser { deploy { maven { mavenCentral { ... } } } }`: the line of `mavenCentral`. */
  jreleaserMavenCentral?: number;
  /** `signing { useGpgCmd() }`: gpg (its agent and default key) signs; no keyring properties needed. */
  gpgCmd?: number;
  /** `signing { useInMemoryPgpKeys(...) }`: the line and the properties/variables it reads. */
  inMemorySigning?: { line: number; refs: ScriptReference[]; args: ScriptReference[][] };
  /** Publishing credentials the script configures itself (`credentials {}`, gradle-nexus, nmcp, JReleaser). */
  credentials?: CredentialSource[];
  /** `developer { … }` / `license { … }` entries of the publications' `pom { … }` blocks. */
  pomEntries?: PomEntry[];
}

export interface AppliedScript {
  /** As written; may hold `$rootDir`/`$projectDir`, which the gatherer substitutes. */
  path: string;
  /** Written as `rootProject.file(...)`: relative to the root project. */
  fromRoot: boolean;
  line: number;
  scope: PluginScope;
}

/** gradle-nexus/publish-plugin's default for `sonatype()`: the retired OSSRH host. */
export const nexusSonatypeDefault = 'https://oss.sonatype.org/service/local/';
/** io.codearte.nexus-staging's `serverUrl` default: the same retired host. */
export const nexusStagingPluginId = 'io.codearte.nexus-staging';
/** The gradle-nexus plugin's predecessor; its `serverUrl` defaults to the same retired host. */
export const marcphilippNexusPluginId = 'de.marcphilipp.nexus-publish';
