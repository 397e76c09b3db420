/**
 * The facts every preflight check reads. Gathering (I/O) happens once, in
 * src/checks/gather-facts.ts; checks only read this structure.
 *
 * Each build tool and concern owns one optional section; a section is absent when it does not
 * apply (no Gradle build) or could not be gathered (then the gatherer records a finding).
 */
import type { Finding, SkippedCheck } from '../core/findings.js';
import type { MavenFacts } from '../build-tools/maven/facts.js';
import type { GradleFacts } from '../build-tools/gradle/facts.js';
import type { GitFacts } from '../io/git.js';
import type { NoticeRecord } from '../core/post-release/notice-rule.js';
import type { PublishingRoute } from './route-types.js';
import type { SigningKeyFacts } from '../keys/online-types.js';

export type { ReleaseFacts } from '../build-tools/release-facts.js';
import type { ReleaseFacts } from '../build-tools/release-facts.js';
import type { BuildTool } from '../core/build-tool.js';

export interface ProjectFacts {
  /** Absolute project root. */
  root: string;
  buildTool: BuildTool;
  /** Findings the gatherers themselves produced (unparseable files, missing modules, ...). */
  gatherFindings: Finding[];
  /** Checks the gatherers already know cannot run (git missing, a parent not found), and why. */
  gatherSkipped?: SkippedCheck[];
  maven?: MavenFacts;
  gradle?: GradleFacts;
  git?: GitFacts;
  release?: ReleaseFacts;
  online?: OnlineFacts;
  /** A JReleaser configuration file in the project root that configures the Maven Central deployer. */
  jreleaserFile?: { file: string; line: number };
  /** A JReleaser configuration file in the project root that configures the nexus2 deployer, and its url. */
  jreleaserNexus2File?: { file: string; line: number; url?: string };
  /** Online lookups the gatherers needed and got no answer to (a parent POM fetch): exit 3. */
  unreachable?: string[];
  /** How the project publishes (DESIGN §4); computed from the facts above by detectRoute. */
  route?: PublishingRoute;
  /** The signing key's packet version and algorithm (online: as served; offline: the local keyring). */
  signingKey?: SigningKeyFacts;
  /** Pre-release notices sent (journal) and today's date; absent when the project has no `mail` config. */
  notice?: NoticeFacts;
  /** The configured portal URL: its `/repository/maven-snapshots/` is the portal's snapshot repository too. */
  portalUrl?: string;
}

export interface NoticeFacts {
  notices: NoticeRecord[];
  /** Local calendar day, YYYY-MM-DD. */
  today: string;
  requiredWorkingDays: number;
}

/** Filled in by the online gatherers (portal and key issues); absent with --offline. */
export interface OnlineFacts {
  [section: string]: unknown;
}
