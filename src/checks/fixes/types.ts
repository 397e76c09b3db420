import type { Finding } from '../../core/findings.js';
import type { FixPlan, FixSource } from '../../core/fix/types.js';
import type { ProjectFacts } from '../facts.js';

/** What a fix rule may use: preflight's facts and findings, and the files as read (no I/O of its own). */
export interface FixContext {
  facts: ProjectFacts;
  /** The findings of the preflight run being fixed (only those of the selected groups). */
  findings: readonly Finding[];
  /**
   * A file's decoded text: project-relative path, or the absolute path of the Maven settings file.
   * Undefined when it does not exist. Injected by the command, so rules stay pure.
   */
  read(file: string): FixSource | undefined;
  /** Why read() gave nothing for a file that exists (`pom.xml is declared Shift_JIS; ...`), when it did. */
  unreadable?(file: string): string | undefined;
  options: FixOptions;
}

/** Default names of the variables a new `<server>` reads the portal token from (DESIGN §12's secrets). */
export const defaultUsernameVariable = 'CENTRAL_TOKEN_USERNAME';
export const defaultPasswordVariable = 'CENTRAL_TOKEN_PASSWORD';

export interface FixOptions {
  /** `--fix-metadata`: fill `url` / `scm/url` from the git remote. */
  fixMetadata: boolean;
  /** The origin remote's URL, when there is one (for --fix-metadata). */
  remoteUrl?: string;
  /** Environment variable names written into a new `<server>` (never values). */
  usernameVariable: string;
  passwordVariable: string;
  /** The user named those variables (--token-username-env / --token-password-env): no other names are reused. */
  variablesChosen?: boolean;
  /**
   * `--bump-released`: move a released version to the next snapshot even when its tag is at HEAD
   * (the release under way not finished); without it that is declined.
   */
  bumpReleased?: boolean;
  /** The settings file preflight used (absolute), whether or not it exists yet. */
  settingsFile?: string;
}

/** A mechanical fix for some finding codes: pure, from facts to edits. */
export interface FixRule {
  /** The finding codes it fixes. */
  codes: readonly string[];
  plan(ctx: FixContext): FixPlan;
}
