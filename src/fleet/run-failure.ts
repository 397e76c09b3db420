/**
 * A fleet run that failed is not a fleet that is not ready (DESIGN §13): exit 1 means "some
 * repository is not ready", so a scheduled workflow tells the two apart only if a failure of the
 * run itself never exits 1. A bug of relctl's and a network that reached no repository exit 3 (as
 * elsewhere: environment or remote), and their network advice names the flag the fleet reaches
 * its host with (`--github-url`), not the portal's. Pure.
 */
import { EnvironmentError, ExitCode, RelctlError, type ExitCodeValue } from '../core/errors.js';
import { fleetReport, type FleetFailure } from './report-document.js';
import { blankReport, type FleetReport } from './report-types.js';

const hostNetworkFix = "Check the network, --github-url (the repository host's API root: its host serves the clones too) and any HTTPS_PROXY/NO_PROXY, then run again.";

/** A bug of relctl's during a fleet run: exit 3, never 1 (DESIGN §13); the stack only with --verbose. */
class FleetInternalError extends RelctlError {
  readonly exitCode = ExitCode.environment;
  readonly kind = 'internal';
}

/** The error a failed fleet run ends with: relctl's own as they are (network advice about the host), anything else a FleetInternalError. */
export function fleetRunError(error: unknown): RelctlError {
  if (error instanceof RelctlError) {
    if (error.kind !== 'network' && error.kind !== 'timeout') {
      if (error.exitCode !== ExitCode.failed) return error;
      // Exit 1 is the fleet's "not ready": a step of the run that failed is the run's failure.
      return new EnvironmentError(error.message, { kind: error.kind, ...(error.fix === undefined ? {} : { fix: error.fix }), data: error.data, cause: error });
    }
    return new EnvironmentError(error.message, { kind: error.kind, fix: hostNetworkFix, data: error.data, cause: error });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new FleetInternalError(`internal error (this is a bug in relctl): ${message}`, {
    fix: 'Report it with the command you ran and its output with --verbose (remove anything private first).',
    ...(error instanceof Error && error.stack !== undefined ? { detail: error.stack } : {}),
  });
}

/** What a failed run leaves in `--out`: the repositories it was asked about (`--only`), each an `error` with the run's failure. */
export function failedRunReport(error: RelctlError, names: readonly string[]): FleetReport {
  const failure = { code: error.code, message: error.message, ...(error.fix === undefined ? {} : { fix: error.fix }) };
  // Not ok whatever it holds: the run failed, even with no repository to show.
  return { ...fleetReport(names.map((n) => ({ ...blankReport(n, ''), error: failure })), [], []), ok: false };
}

/**
 * What a failed run writes to `--out`: the repository `--only` named (else, in a human format, the
 * run itself, so the file says what happened), an `error` with the run's failure and its fix.
 */
export function failedRunOutput(error: RelctlError, only: string | undefined, json: boolean): { report: FleetReport; failure: FleetFailure } {
  const names = only !== undefined ? [only] : json ? [] : ['(the fleet run)'];
  return { report: failedRunReport(error, names), failure: { code: error.code, message: error.message, fix: error.fix ?? 'Run the command again with --verbose.' } };
}

const network = /could not resolve (host|proxy)|failed to connect|connection (refused|timed out|reset)|network is unreachable|operation timed out|no route to host|TLS connection was non-properly terminated/i;

/** Every repository failed to clone or fetch for the network: the run reached nothing (exit 3, not 1). */
export function unreachableFailure(report: FleetReport): FleetFailure | undefined {
  const all = report.repositories;
  const cut = (r: FleetReport['repositories'][number]): boolean => r.error !== undefined && (r.error.code === 'clone-failed' || r.error.code === 'fetch-failed') && network.test(r.error.message);
  if (all.length === 0 || !all.every(cut)) return undefined;
  return { code: 'fleet-unreachable', message: `No repository could be cloned or fetched (${all.length} tried): the network or the host did not answer.`, fix: hostNetworkFix };
}

/** The exit code of a fleet report: 3 when the run reached no repository, 1 when some repository is not ready, else 0. */
export function fleetExitCode(report: FleetReport): ExitCodeValue {
  if (unreachableFailure(report) !== undefined) return ExitCode.environment;
  return report.ok ? ExitCode.ok : ExitCode.failed;
}
