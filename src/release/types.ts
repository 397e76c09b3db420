import type { PublishingRoute } from '../core/publishing-route.js';
import type { CommandContext } from '../io/command-context.js';
import type { ProcessRunner } from '../io/process-runner.js';

/** The steps of a release, in chain order (DESIGN §6). */
export const stepIds = ['preflight', 'keys', 'prep', 'build', 'verify', 'upload', 'status'] as const;
export type StepId = (typeof stepIds)[number];

export function isStepId(s: string): s is StepId {
  return (stepIds as readonly string[]).includes(s);
}

/**
 * What the steps learn and hand on. Every field is JSON-safe and never a secret: the runner
 * stores each step's additions in the journal so a resumed run starts with the same context.
 */
export interface ReleaseContext {
  buildTool?: 'maven' | 'gradle';
  groupId?: string;
  artifactId?: string;
  /** The version in the build files before the release (X.Y.Z-SNAPSHOT). */
  currentVersion?: string;
  version?: string;
  nextVersion?: string;
  tag?: string;
  /** Orphan versions: tagged, never published; the release notes must say so. */
  skippedVersions?: string[];
  firstRelease?: boolean;
  fingerprint?: string;
  /** How the release reaches the portal (Maven): the staging API, or central-publishing-maven-plugin's bundle. */
  publishingRoute?: PublishingRoute;
  /** The portal-plugin route: the bundle zip release:perform built (verified, then uploaded). */
  bundle?: string;
  /** The folder holding what the build deployed (Maven: target/checkout). */
  releaseDir?: string;
  /** Which machine (and source address) staged the upload: the same-machine rule. */
  machine?: string;
  repositoryKey?: string;
  deploymentId?: string;
  deploymentState?: string;
  deploymentsUrl?: string;
  /** Set by prep when it made the `chore: pre-release prep` commit. */
  prepCommit?: string;
}

export interface ChainOptions {
  dryRun: boolean;
  yes: boolean;
  /** Hand the terminal to the build tool's own prompts (drops -B and the properties). */
  interactive: boolean;
  /** `release --restart`: start over even where release.properties holds a finished prepare. */
  restart?: boolean;
  offline: boolean;
  /** Seconds `status` waits for the portal's verdict. */
  waitTimeout: number;
}

export interface StepDeps {
  ctx: CommandContext;
  options: ChainOptions;
  proc: ProcessRunner;
}

export interface Step {
  id: StepId;
  title: string;
  /** A reason to skip the step in this context (e.g. prep for Gradle), or undefined to run it. */
  skip?(rc: Readonly<ReleaseContext>, deps: StepDeps): string | undefined | Promise<string | undefined>;
  /** The step asks questions itself: no spinner around it. */
  prompts?: boolean;
  /** One line for the step's success message. */
  summary?(rc: Readonly<ReleaseContext>, added: Partial<ReleaseContext>): string | undefined;
  /** Does the work; returns what it adds to the context. Throws a RelctlError to stop the chain. */
  run(rc: Readonly<ReleaseContext>, deps: StepDeps): Promise<Partial<ReleaseContext>>;
}

export type StepOutcome =
  | { id: StepId; status: 'done'; added: Partial<ReleaseContext>; ms: number }
  | { id: StepId; status: 'skipped'; reason: string }
  | { id: StepId; status: 'already-done' }
  | { id: StepId; status: 'failed'; error: { kind: string; message: string; fix?: string }; ms: number }
  | { id: StepId; status: 'not-run' };
