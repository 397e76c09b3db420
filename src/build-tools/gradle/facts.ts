import type { CredentialSource, PluginScope, RepositoryUrl, ScriptReference } from '../../core/gradle/build-script.js';
import type { PomEntry } from '../../core/gradle/pom-entries.js';

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
  /**
   * Publishing credentials the scripts read themselves (`credentials {}`, gradle-nexus, nmcp,
   * JReleaser), each with the properties/variables that are set nowhere (one per credential).
   */
  scriptCredentials?: (GradleLocation & { kind: CredentialSource['kind']; url?: string; missing: ScriptReference[] })[];
  /** Keys of the project's own gradle.properties (Gradle reads them too; names only). */
  projectKeys?: string[];
}

export interface GradlePluginFact {
  id: string;
  file: string;
  line: number;
  version?: string;
  /** How it reached this project: its own script or a root `subprojects {}`/`allprojects {}`/`project(...) {}` block. */
  scope: PluginScope['kind'];
}

/** A publishing repository URL of the build (see RepositoryUrl), with the script it is written in. */
export interface GradleRepositoryFact extends RepositoryUrl {
  file: string;
}

export interface GradleProjectFacts {
  /** `:` for the root project, `:web` for an included one. */
  path: string;
  /** Folder, `.` for the root. */
  dir: string;
  dirExists: boolean;
  buildFile?: string;
  /** No build script where the settings say one is (or its folder is missing): its checks cannot run. */
  buildFileMissing?: { lookedFor: string[]; why: string };
  /** The settings line that includes it. */
  settingsLine?: number;
  plugins: GradlePluginFact[];
  repositories: GradleRepositoryFact[];
  /** Has `src/main/webapp`: a web archive that must apply the war plugin. */
  hasWebapp: boolean;
  /**
   * The POM `developer {}` / `license {}` entries its scripts write (its build file, the scripts
   * it applies, its convention plugins). A script shared by several projects is listed once, on
   * the first project that reads it.
   */
  pomEntries?: GradlePomEntryFact[];
}

export interface GradlePomEntryFact extends PomEntry {
  file: string;
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
  /** A JReleaser user configuration (`~/.jreleaser/config.*`), which may hold its credentials and keys. */
  jreleaserConfig?: string;
  /** `signing.secretKeyRingFile`, when set. */
  keyRing?: { value: string; resolved: string; exists: boolean; line?: number; /** Set when the project's gradle.properties names it. */ source?: string };
}
