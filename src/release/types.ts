import type { ChosenVersions } from '../core/chosen-versions.js';
import type { RelctlError } from '../core/errors.js';
import type { PublishingRoute } from '../core/publishing-route.js';
import type { CommandContext } from '../io/command-context.js';
import type { ProcessRunner } from '../io/process-runner.js';
import type { Spinner } from '../ui/output.js';
import type { BudgetOptions } from './publishing-budget.js';

/** The steps of a release, in chain order (DESIGN §6): what `relctl release` runs. */
export const releaseStepIds = ['preflight', 'keys', 'prep', 'build', 'verify', 'upload', 'status'] as const;
/** Chores after the release itself (DESIGN §11): a release whose status is done is finished without them; `release` offers them once PUBLISHED. */
export const postReleaseStepIds = ['notes', 'distribute', 'smoke', 'image', 'notify'] as const;
/** Every step `relctl run` accepts, in chain order. */
export const stepIds = [...releaseStepIds, ...postReleaseStepIds] as const;
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
  /** How the release reaches the portal (Maven): the staging API, central-publishing-maven-plugin's bundle, or nexus-staging-maven-plugin. */
  publishingRoute?: PublishingRoute;
  /** The portal-plugin route: the bundle zip release:perform built (verified, then uploaded). */
  bundle?: string;
  /**
   * The nexus-staging route: the staging repositories nexus-staging-maven-plugin made (set when it
   * staged remotely itself during the build, or by the upload step's deploy-staged).
   */
  stagingRepositoryIds?: string[];
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
  /** Set by notes: where the Markdown was written, and the release page. */
  notesFile?: string;
  releaseUrl?: string;
  /** Post-release: the distribution pull request, the smoke log, the image digest, the notices. */
  pullRequestUrl?: string;
  smokeLog?: string;
  /** The pin the smoke test deployed (`property=version`). */
  smokeDeployed?: string;
  /** The smoke test's health URL when its server was left running for a person (relctl smoke --stop ends it). */
  smokeRunning?: string;
  imageDigest?: string;
  announced?: 'sent' | 'written';
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
  /** `--release-version` / `--next-version`: the versions the build releases (journaled for --resume). */
  versions?: ChosenVersions;
  /** `--usage FILE` / `--over-budget`: the month's publishing budget (DESIGN §5a). */
  budget?: BudgetOptions;
}

/** What a command asks the chain runner (runner.ts) to run. */
export interface ChainRequest {
  /** `release` refuses to silently restart an unfinished release; `run` is the manual tool. */
  command: 'release' | 'run' | 'rehearse';
  steps: readonly StepId[];
  resume?: boolean;
  from?: string;
  /** Discard an unfinished release in the journal and start over. */
  restart?: boolean;
  /** Context to start from (rehearse seeds it); journal data is merged on top. */
  initial?: Partial<ReleaseContext>;
  /** Return a failed summary instead of throwing (rehearse renders the failure itself). */
  returnFailures?: boolean;
}

export interface StepDeps {
  /** The command running the chain: `release` offers post-release steps only after PUBLISHED. */
  command?: 'release' | 'run' | 'rehearse';
  ctx: CommandContext;
  options: ChainOptions;
  proc: ProcessRunner;
  /**
   * The signing key imported from the environment (release/unattended.ts): the build gets its
   * passphrase by contract (maven-gpg-plugin's MAVEN_GPG_PASSPHRASE); never journaled.
   */
  signing?: { fingerprint: string; passphrase?: string };
  /** The running step's spinner on a terminal: a long build shows its progress in it. */
  spinner?: Spinner;
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

/**
 * Thrown by a step in a dry run where a real run would stop (preflight errors, a key not ready):
 * the dry run reports it as "a real run would stop here" and goes on to show the rest of the plan.
 */
export class DryRunStop {
  constructor(
    readonly error: RelctlError,
    /** What the step learnt anyway (the plan of the later steps needs it). */
    readonly added: Partial<ReleaseContext> = {},
  ) {}
}

/** A failed step's error as the summary and --json carry it (DESIGN §3: `code`; `kind` its alias). */
export interface StepError {
  code: string;
  kind: string;
  message: string;
  fix?: string;
  /** A failed real run: the journal file and the command that continues after the last finished step. */
  journal?: string;
  resume?: string;
}

export type StepOutcome =
  | { id: StepId; status: 'done'; added: Partial<ReleaseContext>; ms: number }
  | { id: StepId; status: 'skipped'; reason: string }
  | { id: StepId; status: 'already-done' }
  | { id: StepId; status: 'failed'; error: StepError; ms: number }
  /** Dry run only: a real run would stop at this step. */
  | { id: StepId; status: 'would-stop'; error: StepError }
  | { id: StepId; status: 'not-run' }
  /** A dry run's step after a would-stop: simulated (its plan printed), but a real run would not get there. */
  | { id: StepId; status: 'not-reached'; stoppedAt: StepId };
