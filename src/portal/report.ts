import type { CommandContext } from '../io/command-context.js';
import { errorJson, isRelctlError } from '../core/errors.js';
import { findingToJson, toReport } from '../core/findings.js';
import { findingsText } from '../ui/render/findings.js';
import type { PortalFailure } from './client.js';

/**
 * Shared rendering of portal outcomes. Ids (deployment id, repository key) are printed on
 * success and on failure, in text and JSON (DESIGN §10).
 */

/**
 * A failure that carries decoded portal findings (validation) is rendered as a report: findings
 * on stdout (or in the one JSON document, with the error beside them), then the error goes back
 * to cli.ts, which prints cause, fix and ids and sets the exit code (the only place that does).
 */
export function renderPortalFailure(ctx: CommandContext, error: unknown, subject: string, extra: Record<string, unknown> = {}): never {
  if (!isRelctlError(error)) throw error;
  Object.assign(error.data, Object.fromEntries(Object.entries(extra).filter(([, v]) => v !== undefined)));
  const findings = (error as PortalFailure).findings;
  if (findings === undefined) throw error;
  const report = toReport(findings);
  if (ctx.out.json) {
    ctx.out.resultJson({ ok: false, error: errorJson(error), ...error.data, findings: report.findings.map(findingToJson) });
  } else {
    ctx.out.result(findingsText({ ok: false, findings: report.findings }, ctx.out.c, subject));
  }
  throw error;
}

/** `key: value` lines for the ids that are known. */
export function idLines(ids: Record<string, string | null | undefined>): string[] {
  return Object.entries(ids)
    .filter(([, v]) => v !== undefined && v !== null)
    .map(([k, v]) => `${k}: ${String(v)}`);
}
