/**
 * The version facts both build tools' gatherers fill (part of preflight's ProjectFacts, in
 * src/checks/facts.ts): here, below the checks, because the gatherers write them.
 */
/** Version facts shared by both build tools. */
export interface ReleaseFacts {
  /** The current version as declared (`1.2.3-SNAPSHOT`), if known. */
  currentVersion?: string;
  /** The build computes its version (Gradle `version = <expression>`): unknown without running it. */
  versionComputed?: boolean;
  /** What computes it, said when the version checks cannot run (`axion-release`, `the environment variable V at build.gradle:3`). */
  versionComputedBy?: string;
  /** Where the artifactId of the tag comes from, for --verbose (`rootProject.name in settings.gradle`). */
  artifactIdFrom?: string;
  /** A configured tag format with placeholders relctl cannot fill (`@{project.groupId}`): the release tag is unknown. */
  tagTemplateUnknown?: boolean;
  /** File and line that declare it. */
  versionFile?: string;
  versionLine?: number;
  /** The artifactId used for the tag (`<artifactId>-X.Y.Z`). */
  artifactId?: string;
  groupId?: string;
  /** The tag the release would create. */
  releaseTag?: string;
  /** Whether that tag already exists locally. */
  releaseTagExists?: boolean;
  /** Whether the release version is already in the public repository (undefined: not checked). */
  releaseVersionPublished?: boolean;
  /** Tag template when not relctl's `{artifactId}-{version}` (the Gradle release plugin's tagTemplate). */
  tagTemplate?: string;
  /** The tag template was learned from the project's tags (no usable one configured). */
  tagTemplateLearned?: boolean;
  /** Why publication could not be checked (`--offline`, `HTTP 503`, ...); set when releaseVersionPublished is undefined. */
  publishedUnknownReason?: string;
  /** Public-repository presence of each tagged release version probed (orphan chains), by version. */
  publishedVersions?: Record<string, boolean>;
  /** Which service answered for each version of publishedVersions (DESIGN §5a: output names it). */
  publishedSources?: Record<string, 'portal' | 'public repository'>;
}
