import type { CommandContext } from '../io/command-context.js';
import { ExitCode, isRelctlError } from '../core/errors.js';
import { findingToJson, toReport } from '../core/findings.js';
import { findingsText } from '../ui/render/findings.js';
import type { PortalFailure } from './client.js';

/**
 * Shared rendering of portal outcomes. Ids (deployment id, repository key) are printed on
 * success and on failure, in text and JSON (DESIGN §10).
 */

/**
 * A failure that carries decoded portal findings (validation) is rendered as a report: findings
 * on stdout (or in the one JSON document) plus the error on stderr; exit 1. Other errors go back
 * to cli.ts, which prints cause, fix and ids.
 */
export function renderPortalFailure(ctx: CommandContext, error: unknown, subject: string, extra: Record<string, unknown> = {}): number {
  if (!isRelctlError(error)) throw error;
  const findings = (error as PortalFailure).findings;
  if (findings === undefined) {
    Object.assign(error.data, Object.fromEntries(Object.entries(extra).filter(([, v]) => v !== undefined)));
    throw error;
  }
  const report = toReport(findings);
  const ids = { ...extra, ...error.data };
  if (ctx.out.json) {
    ctx.out.resultJson({
      ok: false,
      error: { kind: error.kind, message: error.message, fix: error.fix, ...ids },
      ...ids,
      findings: report.findings.map(findingToJson),
    });
  } else {
    ctx.out.result(findingsText({ ok: false, findings: report.findings }, ctx.out.c, subject));
    ctx.out.error(error.message);
    if (error.fix !== undefined) ctx.out.info(`${ctx.out.c.bold('fix:')} ${error.fix}`);
    for (const [k, v] of Object.entries(ids)) if (v !== undefined) ctx.out.info(`${k}: ${String(v)}`);
  }
  return error.exitCode === ExitCode.ok ? ExitCode.failed : error.exitCode;
}

/** `key: value` lines for the ids that are known. */
export function idLines(ids: Record<string, string | null | undefined>): string[] {
  return Object.entries(ids)
    .filter(([, v]) => v !== undefined && v !== null)
    .map(([k, v]) => `${k}: ${String(v)}`);
}
