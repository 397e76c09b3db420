import type { Finding } from '../core/findings.js';
import type { ProjectFacts } from './facts.js';
import type { KeyCheckFacts, OnlineSections } from './online-types.js';
import type { Check } from './types.js';

const day = 24 * 60 * 60 * 1000;
export const expiringWithinDays = 30;

function f(code: string, severity: Finding['severity'], message: string, fix: string): Finding {
  return { code, severity, message, fix };
}

/**
 * The key findings of `keys check` and preflight (DESIGN §4). Pure: every lookup was made
 * before, concurrently, by src/keys/check.ts.
 */
export function keyFindings(k: KeyCheckFacts): Finding[] {
  if (k.fingerprint === undefined) {
    return k.problem === undefined ? [] : [f('key-not-published', 'error', k.problem.message, k.problem.fix)];
  }
  const out: Finding[] = [];
  const fpr = k.fingerprint;
  const exportSteps = `Export it (relctl keys export), paste the file into ${k.uploadFormUrl}, confirm the link mailed to the key's address, then run relctl keys check again.`;
  const lookupError = [k.primary, k.secondary].find((o) => typeof o === 'object');
  if (k.primary === 'not-found') {
    if (k.secondary === 'found') {
      out.push(
        f(
          'key-only-secondary',
          'error',
          `Key ${fpr} is on the secondary key server (${k.secondaryUrl}) but not on the primary one (${k.primaryUrl}); the portal then fails signatures at random.`,
          exportSteps,
        ),
      );
    } else {
      out.push(f('key-not-published', 'error', `Key ${fpr} is not on the primary key server ${k.primaryUrl} (404).`, exportSteps));
    }
  } else if (k.primary === 'found') {
    const unconfirmed = k.emails.filter((e) => e.outcome === 'not-found').map((e) => e.address);
    if (k.served?.from === 'primary' && !k.served.hasUserIds) {
      out.push(
        f(
          'key-unconfirmed',
          'warning',
          `Key ${fpr} is on ${k.primaryUrl} without any user id: no address of it was confirmed.`,
          `Confirm the address through the link the key server mailed (or request a new one at ${k.uploadFormUrl}).`,
        ),
      );
    } else if (unconfirmed.length > 0) {
      out.push(
        f(
          'key-unconfirmed',
          'warning',
          `Key ${fpr} is found by fingerprint but not by ${unconfirmed.join(', ')}: the address was never confirmed.`,
          `Open the confirmation link the key server mailed to ${unconfirmed.join(', ')} (or request a new one at ${k.uploadFormUrl}).`,
        ),
      );
    }
  }
  if (lookupError !== undefined && typeof lookupError === 'object') {
    out.push(
      f(
        'key-not-published',
        'error',
        `The key servers could not be asked about ${fpr}: ${lookupError.error}`,
        'Check the network and --keyserver-url / --secondary-keyserver-url, then run relctl keys check again.',
      ),
    );
  }
  if (k.served !== undefined) {
    const now = Date.parse(k.checkedAt);
    const dates = [k.served.expiresAt, k.served.signingExpiresAt].filter((d): d is string => d !== null);
    const soonest = dates.map((d) => Date.parse(d)).sort((a, b) => a - b)[0];
    const where = k.served.from === 'local' ? 'in the local keyring' : `as served by the ${k.served.from} key server`;
    if (soonest !== undefined && soonest <= now) {
      out.push(
        f(
          'key-expired',
          'error',
          `Key ${fpr} expired on ${new Date(soonest).toISOString().slice(0, 10)} (${where}).`,
          `Extend it (gpg --quick-set-expire ${fpr} 2y, and for the signing subkey), then upload the refreshed key to ${k.uploadFormUrl}.`,
        ),
      );
    } else if (soonest !== undefined && soonest - now <= expiringWithinDays * day) {
      out.push(
        f(
          'key-expiring',
          'warning',
          `Key ${fpr} expires on ${new Date(soonest).toISOString().slice(0, 10)}, within ${expiringWithinDays} days (${where}).`,
          `Extend it now (gpg --quick-set-expire ${fpr} 2y) and upload the refreshed key to ${k.uploadFormUrl}.`,
        ),
      );
    }
  }
  if (k.configuredKeyId !== undefined && !k.configuredKeyId.matches) {
    out.push(
      f(
        'key-mismatch',
        'error',
        `The build signs with key ${k.configuredKeyId.id} (${k.configuredKeyId.source}), which is not the key being checked (${fpr}).`,
        'Make the configured signing key and the published key the same: fix signing.keyId, or check the right key with --fingerprint.',
      ),
    );
  }
  return out;
}

function keysOf(facts: ProjectFacts): KeyCheckFacts | undefined {
  return (facts.online as OnlineSections | undefined)?.keys;
}

export const onlineKeysCheck: Check = {
  id: 'online-keys',
  codes: ['key-not-published', 'key-only-secondary', 'key-unconfirmed', 'key-expired', 'key-expiring', 'key-mismatch'],
  title: 'signing key published on the primary key server, confirmed and unexpired',
  online: true,
  appliesTo: (facts) => keysOf(facts) !== undefined,
  run: (facts) => keyFindings(keysOf(facts)!),
};

/**
 * The key-server lookups that got no answer (network, timeout, 5xx): an environment failure, so
 * `keys check` and preflight end with exit 3 (DESIGN §3) instead of a plain failed check.
 */
export function keyLookupErrors(k: KeyCheckFacts): string[] {
  const outcomes = [k.primary, k.secondary, ...k.emails.map((e) => e.outcome)];
  return [...new Set(outcomes.filter((o): o is { error: string } => typeof o === 'object').map((o) => o.error))];
}
