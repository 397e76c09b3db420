import type { Finding } from '../core/findings.js';
import type { ProjectFacts } from './facts.js';
import type { OnlineSections, PortalCheckFacts } from '../keys/online-types.js';
import type { Check } from './types.js';

/** Credentials, token and namespace findings of preflight (DESIGN §4, online). Pure. */
export function portalFindings(p: PortalCheckFacts): Finding[] {
  const deployments = `${p.portalUrl.replace(/\/+$/, '')}/publishing/deployments`;
  if (p.credentials === 'missing') {
    return [{ code: 'missing-credentials', severity: 'error', message: 'No portal user token is configured.', fix: p.missingFix }];
  }
  const out: Finding[] = [];
  if (p.auth === 'rejected' || p.auth === 'expired') {
    out.push({
      code: 'token-rejected',
      severity: 'error',
      message:
        p.auth === 'expired'
          ? 'The staging API refused the configured token (HTTP 401): the token has expired.'
          : 'The staging API refused the configured token (HTTP 401): it is wrong, revoked or past its expiry (the answer does not say which).',
      fix: p.tokenFix,
    });
  }
  if (p.blockedBy !== undefined) {
    out.push({
      code: 'namespace-blocked',
      severity: 'error',
      message: `Namespace ${p.groupId ?? ''} is blocked by the FAILED deployment ${p.blockedBy.deploymentId} (repository ${p.blockedBy.repositoryKey}): every upload returns HTTP 400 until it is dropped.`,
      fix: `Drop it (relctl drop --deployment ${p.blockedBy.deploymentId}, or Drop at ${deployments}), fix the cause, then release the next version.`,
    });
  }
  return out;
}

function portalOf(facts: ProjectFacts): PortalCheckFacts | undefined {
  return (facts.online as OnlineSections | undefined)?.portal;
}

export const onlinePortalCheck: Check = {
  id: 'online-portal',
  codes: ['missing-credentials', 'token-rejected', 'namespace-blocked'],
  title: 'portal token accepted and namespace not blocked by a failed deployment',
  online: true,
  appliesTo: (facts) => portalOf(facts) !== undefined,
  run: (facts) => portalFindings(portalOf(facts)!),
};
