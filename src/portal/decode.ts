/**
 * Pure decoders: every known answer of the staging API and the Publisher API mapped to a cause
 * and a next step (DESIGN §5, reference/portal-api.md §A3, §B, §E). No I/O here.
 */
import type { Finding } from '../core/findings.js';
import { ruleCodeOfText } from '../core/validation/texts.js';
import { fixForRule } from './rule-fixes.js';

export type FailureExit = 'failed' | 'usage' | 'environment';

export interface DecodedFailure {
  exit: FailureExit;
  /** Stable kebab-case id, also the JSON `error.kind`. */
  kind: string;
  message: string;
  fix: string;
  findings?: Finding[];
  deploymentId?: string;
  repositoryKey?: string;
  deploymentsUrl?: string;
}

export interface DecodeContext {
  /** What was being done, for the message ("manual upload", "search", ...). */
  action: string;
  portalUrl: string;
  groupId?: string;
  repositoryKey?: string;
  deploymentId?: string;
  /** A 401's `WWW-Authenticate`: where an answer may say that the token expired. */
  challenge?: string;
}

export function deploymentsUrl(portalUrl: string): string {
  return `${portalUrl.replace(/\/+$/, '')}/publishing/deployments`;
}

const requestPrefix = /^Failed to process request:\s*/;

/** The portal's message: JSON `{"error": ...}` (production), or plain text (prototype). */
export function errorText(body: string): { text: string; deploymentId?: string } {
  const trimmed = body.trim();
  if (trimmed.startsWith('{')) {
    try {
      const json = JSON.parse(trimmed) as Record<string, unknown>;
      const text = typeof json.error === 'string' ? json.error : typeof json.message === 'string' ? json.message : trimmed;
      const id = typeof json.deploymentId === 'string' ? json.deploymentId : undefined;
      return { text: text.replace(requestPrefix, ''), ...(id === undefined ? {} : { deploymentId: id }) };
    } catch {
      // Not JSON after all: fall through to plain text.
    }
  }
  return { text: trimmed.replace(requestPrefix, '') };
}

export interface ComponentErrors {
  purl: string;
  lines: string[];
}

/** "Deployment reached an unexpected status: Failed\n- pkg:maven/...\n  - text" → per component. */
export function parseValidationFailure(text: string): ComponentErrors[] {
  const out: ComponentErrors[] = [];
  let current: ComponentErrors | undefined;
  for (const raw of text.split(/\r?\n/)) {
    const component = /^-\s+(pkg:\S+)\s*$/.exec(raw);
    if (component !== null) {
      current = { purl: component[1]!, lines: [] };
      out.push(current);
      continue;
    }
    const line = /^\s+-\s+(.*\S)\s*$/.exec(raw);
    if (line !== null) {
      if (current === undefined) {
        current = { purl: 'common', lines: [] };
        out.push(current);
      }
      current.lines.push(line[1]!);
    } else if (/^-\s+\S/.test(raw)) {
      // "- Component with package url: ... already exists" directly under the status line.
      current = { purl: 'common', lines: [raw.replace(/^-\s+/, '').trim()] };
      out.push(current);
    }
  }
  return out;
}

/** Portal error lines → findings with code `portal-validation` (module = purl). */
export function validationFindings(components: readonly ComponentErrors[], portalUrl: string): Finding[] {
  const where = deploymentsUrl(portalUrl);
  return components.flatMap((c) =>
    c.lines.map((message) => ({
      code: 'portal-validation',
      severity: 'error' as const,
      message,
      module: c.purl,
      fix: `${fixForRule(ruleCodeOfText(message))} The deployment is listed at ${where}.`,
    })),
  );
}

/** The portal's status `errors` map (purl or "common" → texts) as components. */
export function componentsOfStatusErrors(errors: unknown): ComponentErrors[] {
  if (errors === null || typeof errors !== 'object') return [];
  return Object.entries(errors as Record<string, unknown>).map(([purl, lines]) => ({
    purl,
    lines: Array.isArray(lines) ? lines.map(String) : [String(lines)],
  }));
}

function blockedFix(ctx: DecodeContext, deploymentId: string | undefined): string {
  const drop = deploymentId === undefined ? 'relctl drop --deployment <id>' : `relctl drop --deployment ${deploymentId}`;
  return `Drop the failed deployment (${drop}, or Drop at ${deploymentsUrl(ctx.portalUrl)}), fix its cause, then release the next version.`;
}

/**
 * How a portal user token is made now (central.sonatype.org "Generate a Portal Token"): on the
 * portal's `/usertoken` page, with a display name and an expiration; shown once, so a lost or
 * expired one is replaced by a new one.
 */
export function tokenPageFix(portalUrl: string): string {
  return `Generate a new portal user token at ${portalUrl.replace(/\/+$/, '')}/usertoken (Generate User Token: give it a name and an expiry), then set both halves (RELCTL_TOKEN_USERNAME and RELCTL_TOKEN_PASSWORD, or the Maven <server>, and the CI secrets); the login password and legacy OSSRH tokens are refused.`;
}

/**
 * True when a 401 says the token expired: the portal does not document its wording for an expired
 * token (its prototype answers every refusal with an empty 401), so only an answer that names the
 * expiry counts: RFC 6750's `error_description`, or a body saying so.
 */
export function saysExpired(challenge: string | undefined, body: string): boolean {
  return /expired/i.test(challenge ?? '') || /\bexpired\b/i.test(errorText(body).text);
}

export function tokenRejected(ctx: DecodeContext): DecodedFailure {
  return {
    exit: 'environment',
    kind: 'token-rejected',
    message: `The portal refused the credentials (HTTP 401) for the ${ctx.action}: the token is wrong, revoked or past the expiry it was made with (the portal's answer does not say which).`,
    fix: tokenPageFix(ctx.portalUrl),
  };
}

export function tokenExpired(ctx: DecodeContext): DecodedFailure {
  return {
    exit: 'environment',
    kind: 'token-expired',
    message: `The portal user token has expired (HTTP 401) for the ${ctx.action}: a token works until the expiry chosen when it was made.`,
    fix: tokenPageFix(ctx.portalUrl),
  };
}

/** Longest portal text shown on the `portal said:` line; the rest is cut with an ellipsis. */
export const maxPortalWords = 400;

/**
 * The portal's own words, as users search for them: its error text verbatim on one line (the
 * first line of a multi-line text, whose other lines relctl lists as findings), control
 * characters blanked (a terminal must not obey them), cut at `maxPortalWords` characters.
 * Undefined when the answer had no text. Secrets are masked by the output's redactor, as
 * everything printed is.
 */
export function portalWords(body: string): string | undefined {
  const { text } = errorText(body);
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  const first = lines[0]?.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ').trim();
  if (first === undefined || first === '') return undefined;
  const more = lines.length > 1 ? ` (and ${lines.length - 1} more line${lines.length === 2 ? '' : 's'})` : '';
  return first.length > maxPortalWords ? `${first.slice(0, maxPortalWords)}…${more}` : `${first}${more}`;
}

/**
 * Decodes a non-2xx answer of the staging API or Publisher API: the portal's words verbatim on
 * their own first line (`portal said: …`, DESIGN §5), then relctl's reading of them.
 */
export function decodeFailure(status: number, body: string, ctx: DecodeContext): DecodedFailure {
  const decoded = decodeKnownFailure(status, body, ctx);
  const said = portalWords(body);
  return said === undefined ? decoded : { ...decoded, message: `portal said: ${said}\n${decoded.message}` };
}

function decodeKnownFailure(status: number, body: string, ctx: DecodeContext): DecodedFailure {
  const ids = { ...(ctx.repositoryKey === undefined ? {} : { repositoryKey: ctx.repositoryKey }) };
  if (status === 401) return { ...(saysExpired(ctx.challenge, body) ? tokenExpired(ctx) : tokenRejected(ctx)), ...ids };
  if (status === 402) {
    return {
      exit: 'usage',
      kind: 'legacy-staging-host',
      message: `HTTP 402 Payment Required for the ${ctx.action}: the URL names the retired OSSRH host (oss.sonatype.org / s01.oss.sonatype.org).`,
      fix: 'Point the staging API URL at https://ossrh-staging-api.central.sonatype.com (--staging-api-url or RELCTL_STAGING_API_URL, and the distributionManagement URL).',
    };
  }
  if (status === 403) {
    return {
      exit: 'environment',
      kind: 'token-rejected',
      message: `The portal refused access (HTTP 403) for the ${ctx.action}.`,
      fix: 'Use a portal user token of the account that owns the namespace (and the deployment).',
      ...ids,
    };
  }
  if (status === 408 || status === 429) {
    return {
      exit: 'environment',
      kind: 'portal-unavailable',
      message: `The portal answered HTTP ${status} (${status === 429 ? 'too many requests' : 'request timeout'}) to the ${ctx.action}, also after retrying within the deadline.`,
      fix: 'The service asks relctl to slow down: wait a minute, check the state (relctl search / relctl status), then run the command again.',
      ...ids,
    };
  }
  if (status >= 500) {
    return {
      exit: 'environment',
      kind: 'portal-unavailable',
      message: `The portal answered HTTP ${status} to the ${ctx.action}.`,
      fix: 'The service is having trouble: check the state (relctl search / relctl status) and try again later.',
      ...ids,
    };
  }
  const { text, deploymentId: bodyId } = errorText(body);
  const deploymentId = bodyId ?? ctx.deploymentId;
  const withIds = { ...ids, ...(deploymentId === undefined ? {} : { deploymentId }) };

  const noRepo = /No repository found for (\S+)/.exec(text);
  if (noRepo !== null) {
    const g = ctx.groupId ?? '<group id>';
    return {
      exit: 'failed',
      kind: 'no-repository',
      message: `No staging repository ${noRepo[1]} for this machine's address: nothing was staged from it, or the artifacts were uploaded from another machine (the portal matches the source address).`,
      fix: `Run relctl search --group-id ${g} --ip any; if a repository is listed, move it with relctl upload --repository-key <key>. Otherwise deploy the artifacts first.`,
      repositoryKey: noRepo[1]!,
      ...(deploymentId === undefined ? {} : { deploymentId }),
    };
  }
  if (/No objects found in the repository/.test(text)) {
    return {
      exit: 'failed',
      kind: 'no-objects',
      message: 'The staging repository holds no files: nothing was deployed, or it was already moved to the portal.',
      fix: `Look at ${deploymentsUrl(ctx.portalUrl)} (or relctl status) for an existing deployment; otherwise deploy the artifacts, then upload again.`,
      ...withIds,
    };
  }
  if (/not associated with an authorized namespace|Namespace '[^']*' is not allowed/.test(text)) {
    return {
      exit: 'failed',
      kind: 'namespace-not-authorized',
      message: `The token may not publish into ${ctx.groupId ?? 'this namespace'}.`,
      fix: `Use the group id of a namespace verified for your account (see ${ctx.portalUrl}/publishing/namespaces), or request it in the portal.`,
      ...withIds,
    };
  }
  const blocked = /Repository (\S+) is in state closed\/failed(?:: deployment (\S+) failed)?/.exec(text);
  if (blocked !== null) {
    const id = blocked[2] ?? deploymentId;
    return {
      exit: 'failed',
      kind: 'namespace-blocked',
      message: 'The namespace is blocked by a failed deployment: the portal refuses new uploads until it is dropped.',
      fix: blockedFix(ctx, id),
      repositoryKey: blocked[1]!,
      ...(id === undefined ? {} : { deploymentId: id }),
      deploymentsUrl: deploymentsUrl(ctx.portalUrl),
    };
  }
  if (/Deployment reached an unexpected status: Failed/.test(text)) {
    return {
      exit: 'failed',
      kind: 'portal-validation',
      message: 'The portal validated the deployment and it FAILED; the namespace stays blocked until the deployment is dropped.',
      fix: blockedFix(ctx, deploymentId),
      findings: validationFindings(parseValidationFailure(text), ctx.portalUrl),
      ...withIds,
      deploymentsUrl: deploymentsUrl(ctx.portalUrl),
    };
  }
  // Sonatype documents no wording for a capped publication ("publishing activity capped until usage
  // resets"); the sandbox's text opens with these words and this reading keys on them.
  if (/Publishing limit reached|publishing (activity )?(is )?capped|exceed(s|ed)? (the|your) (free )?publishing limits?/i.test(text)) {
    return {
      exit: 'failed',
      kind: 'publishing-limit-reached',
      message: `The portal refused the ${ctx.action}: your organization's publishing limits for this calendar month are used up (files, size or releases across all its namespaces). Nothing was published; a staging repository stays open.`,
      fix: `See the month's usage at ${ctx.portalUrl.replace(/\/+$/, '')}/publishing/usage; drop optional files (relctl preflight shows what each kind costs), wait for next month (usage resets on the 1st, UTC), or move to Publisher Pro.`,
      ...withIds,
    };
  }
  if (/is (PUBLISHED|PUBLISHING) and cannot be dropped|is already released/.test(text)) {
    return {
      exit: 'failed',
      kind: 'not-droppable',
      message: `The ${ctx.action} was refused: a published release cannot be dropped; Maven Central keeps it for good.`,
      fix: 'Nothing to drop, and a published deployment blocks nothing. To replace what it published, fix the cause and release a new version.',
      ...withIds,
    };
  }
  const unsettled = /is (PENDING|VALIDATING) and cannot be dropped/.exec(text);
  if (unsettled !== null) {
    return {
      exit: 'failed',
      kind: 'not-droppable',
      message: `The ${ctx.action} was refused: the deployment is ${unsettled[1]}, and the portal drops only VALIDATED or FAILED deployments.`,
      fix: `Wait until validation ends (relctl status${deploymentId === undefined ? '' : ` --deployment ${deploymentId}`} --wait), then drop it.`,
      ...withIds,
    };
  }
  if (status === 404) {
    return {
      exit: 'failed',
      kind: 'not-found',
      message: `Not found (HTTP 404) for the ${ctx.action}.`,
      fix: 'Check the id or key (relctl search --ip any lists staging repositories and their deployment ids).',
      ...withIds,
    };
  }
  return {
    exit: 'failed',
    kind: 'portal-rejected',
    message: `The portal rejected the ${ctx.action} (HTTP ${status}).`,
    fix: text === '' ? 'The portal gave no reason: check the id, key and group id you passed, then run the command again.' : 'Read what the portal said above; fix the cause and run the command again.',
    ...withIds,
  };
}
