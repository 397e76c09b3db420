/**
 * What a rehearsal reports (`relctl rehearse`, `relctl fleet rehearse`): apart from run.ts, so that
 * the build step it calls can name them without an import circle.
 */
import type { MavenFailure } from '../../core/build-failures/maven.js';
import type { Finding } from '../../core/findings.js';
import type { ChainSummary } from '../runner.js';
import type { FetchedFile } from './publish-fetch.js';

/** How the copy was built: the commands that ran, what pointed them at the sandbox, and a failure read. */
export interface RehearsalBuildReport {
  commands: string[];
  redirect: string[];
  javaHome?: string;
  notes: string[];
  /** Parent POMs put into the sandbox's public repository before validation (Maven paths). */
  parents: string[];
  failure?: MavenFailure & { command: string };
}

export interface RehearsalResult {
  ok: boolean;
  verdict: 'VALIDATED' | 'PUBLISHED' | 'FAILED' | 'verify-failed' | 'build-failed' | 'deploy-failed' | 'pending' | 'error';
  project: { groupId: string; artifactId: string; version: string; nextVersion?: string; tag: string; buildTool: string };
  preflight: { errors: number; warnings: number; findings: Finding[] };
  signing: { fingerprint?: string; throwaway: boolean };
  build?: RehearsalBuildReport;
  chain?: ChainSummary;
  deploymentId?: string;
  fetched?: FetchedFile[];
  /** --post-release: the notes, distribute and notify steps against the sandbox. */
  postRelease?: ChainSummary;
  workspace?: string;
  error?: { kind: string; message: string; fix?: string };
  /** The month's publishing budget as a real release would check it (DESIGN §5a). */
  publishingBudget?: Record<string, unknown>;
}

/** The portal's success verdicts: a rehearsal that reached one succeeded. */
export function succeeded(verdict: string | undefined): boolean {
  return verdict === 'VALIDATED' || verdict === 'PUBLISHED';
}
