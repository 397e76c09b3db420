/** Maven facts for preflight: the reactor's modules with their effective models, and the settings. */
import type { EffectivePom, PomIdentity, RawPom } from '../../core/pom/index.js';
import type { MavenServer } from '../../core/maven-settings.js';
import type { CiDeploy } from './ci-settings.js';

export interface MavenModuleFacts {
  /** Root-relative POM path, forward slashes (`pom.xml`, `web/pom.xml`). */
  file: string;
  /** Root-relative module folder ('' for the top level). */
  dir: string;
  topLevel: boolean;
  raw: RawPom;
  effective: EffectivePom;
  /** The inheritance chain as far as it resolved: the module first, then its ancestors. */
  chain: PomIdentity[];
  /** True when the nearest parent is a POM of this project (so it reports inherited gaps itself). */
  parentInProject: boolean;
  /**
   * The `<parent>` element through which the chain leaves the project (the last project POM's),
   * where values inherited from a POM outside the project are reported.
   */
  exit?: { file: string; line: number; module: string };
  /** The folder has `src/main/webapp` (web content). */
  hasWebapp: boolean;
  /**
   * A parent in the chain could not be found: inherited values are unknown, so the checks that
   * depend on them stay quiet for this module (DESIGN §4, parent-unresolved).
   */
  parentUnresolved?: boolean;
  /** The id of the parent that was not found (`org.example:parent:1.0`), with parentUnresolved. */
  missingParent?: string;
  /** Left out of the upload on purpose, per uploader (core/pom/uploaders.ts). */
  skips?: { deploy: boolean; publishing: boolean };
}

export interface MavenSettingsFacts {
  /** The settings file relctl looked at (absolute). */
  file: string;
  /** How Maven is told to use it, when not the default: `MAVEN_ARGS` or `.mvn/maven.config` (`-s`). */
  via?: string;
  found: boolean;
  /** False when the file exists but could not be parsed (an xml-malformed finding says why). */
  parsed: boolean;
  servers: MavenServer[];
  /** Every literal secret the file holds, found by parsing it (MavenSettings.secrets): for the redactor. */
  secrets?: string[];
  /** Set when a server password is encrypted: the settings-security.xml that holds the master password. */
  masterPassword?: { file: string; found: boolean };
  /** Settings files of the project that its CI scripts pass with `-s` (`via` names the script). */
  alternatives?: MavenSettingsFacts[];
  /**
   * For a CI settings file: every script passing it deploys the version as checked out and makes
   * no release (build-tools/maven/ci-settings.ts); with a -SNAPSHOT version only snapshots deploy with it.
   */
  deploysAsCheckedOut?: boolean;
  /** For a CI settings file: the environment variables the scripts passing it set. */
  exports?: string[];
}

export interface MavenFacts {
  /** The configured staging API service URL (no trailing slash): distribution URLs must start with it. */
  stagingApiUrl: string;
  /** Reactor modules that parsed, in reactor order (top level first). */
  modules: MavenModuleFacts[];
  settings: MavenSettingsFacts;
  localRepo: string;
  /**
   * RELCTL_TOKEN_USERNAME and RELCTL_TOKEN_PASSWORD are both set: relctl's release writes them into
   * a private settings file under the distribution repository id, so no `<server>` is needed.
   */
  tokenFromEnv: boolean;
  /**
   * The `mvn … deploy` commands of the project's CI scripts (`-f`, `-pl` as written; `unknown`
   * when one comes from a variable): evidence of which POMs the release deploys.
   */
  ciDeploys?: CiDeploy[];
}
