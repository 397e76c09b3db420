import type { PluginScope, RepositoryKind, ScriptReference } from '../../core/gradle/build-script.js';

/**
 * What preflight knows about a Gradle build, read without running Gradle. Paths are relative
 * to the project root with forward slashes.
 */
export interface GradleFacts {
  /** settings.gradle(.kts), absent for a single-project build without one. */
  settingsFile?: string;
  rootProjectName: string;
  /** The root project first, then every included project in settings order. */
  projects: GradleProjectFacts[];
  user: GradleUserProperties;
  /** From the configuration (DESIGN §2): what every release repository URL must point at. */
  stagingApiUrl: string;
  /** What the publishing plugins are told, for the route (DESIGN §4). */
  publishing: GradlePublishingFacts;
}

export interface GradleLocation {
  file: string;
  line: number;
}

export interface GradlePublishingFacts {
  /** vanniktech `publishToMavenCentral(...)`: host '' when called without one. */
  centralHost?: GradleLocation & { host: string };
  /** vanniktech `SONATYPE_HOST` (project or user gradle.properties, or ORG_GRADLE_PROJECT_SONATYPE_HOST). */
  sonatypeHost?: { value: string; file?: string; line?: number };
  /** vanniktech 0.33+ `mavenCentralPublishing=true`. */
  mavenCentralPublishing?: { file?: string; line?: number };
  /** The vanniktech plugin's version when it comes from a dependency (`com.vanniktech:gradle-maven-publish-plugin:X`). */
  vanniktechVersion?: string;
  /** JReleaser's Maven Central deployer. */
  jreleaserMavenCentral?: GradleLocation;
  /** `useGpgCmd()`: gpg signs with its own keys. */
  gpgCmd?: GradleLocation;
  /** `useInMemoryPgpKeys(...)`: where, and which of the properties/variables it reads are not set. */
  inMemorySigning?: GradleLocation & { refs: ScriptReference[]; missing: string[] };
}

export interface GradlePluginFact {
  id: string;
  file: string;
  line: number;
  version?: string;
  /** How it reached this project: its own script or a root `subprojects {}`/`allprojects {}`/`project(...) {}` block. */
  scope: PluginScope['kind'];
}

export interface GradleRepositoryFact {
  url: string;
  kind: RepositoryKind;
  file: string;
  line: number;
  via?: string;
  implicit?: boolean;
  nexus?: boolean;
  /** From the io.codearte nexus-staging plugin (`nexusStaging { serverUrl }` or its default). */
  nexusStaging?: boolean;
  /** A JReleaser `nexus2` deployer's `url` / `snapshotUrl`. */
  jreleaserNexus2?: boolean;
}

export interface GradleProjectFacts {
  /** `:` for the root project, `:web` for an included one. */
  path: string;
  /** Folder, `.` for the root. */
  dir: string;
  dirExists: boolean;
  buildFile?: string;
  /** The settings line that includes it. */
  settingsLine?: number;
  plugins: GradlePluginFact[];
  repositories: GradleRepositoryFact[];
  /** Has `src/main/webapp`: a web archive that must apply the war plugin. */
  hasWebapp: boolean;
}

export interface GradleUserProperties {
  /** Absolute path of the user's gradle.properties (GRADLE_USER_HOME honoured). */
  file: string;
  /** How messages name it: `~/.gradle/gradle.properties` or `$GRADLE_USER_HOME/gradle.properties`. */
  display: string;
  state: 'ok' | 'missing' | 'unreadable';
  /** Why it could not be read (errno code). */
  error?: string;
  /** Keys present in the file or as ORG_GRADLE_PROJECT_<key> variables. Values are never kept here. */
  keys: string[];
  /** RELCTL_TOKEN_USERNAME and RELCTL_TOKEN_PASSWORD are set: relctl hands the token to Gradle itself. */
  tokenFromEnv: boolean;
  /** `signing.secretKeyRingFile`, when set. */
  keyRing?: { value: string; resolved: string; exists: boolean; line?: number };
}
