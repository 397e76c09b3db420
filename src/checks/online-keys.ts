import type { Finding } from '../core/findings.js';
import type { ProjectFacts } from './facts.js';
import type { KeyCheckFacts, OnlineSections } from '../keys/online-types.js';
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
      const answer = k.primaryStatus === undefined ? '' : k.primaryStatus === 200 ? ' (HTTP 200 without a key)' : ` (HTTP ${k.primaryStatus})`;
      out.push(f('key-not-published', 'error', `Key ${fpr} is not on the primary key server ${k.primaryUrl}${answer}.`, exportSteps));
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
 * The key-server lookups that got no answer (network, timeout, 5xx), each naming the server and
 * the cause: an environment failure, so `keys check` and preflight end with exit 3 (DESIGN §3),
 * never with a verdict (key-not-published) about a key nobody could look up.
 */
export function keyLookupErrors(k: KeyCheckFacts): string[] {
  const named = (url: string, o: KeyCheckFacts['primary']): string[] => (typeof o === 'object' ? [`key server ${url} could not be asked: ${o.error}`] : []);
  return [...new Set([...named(k.primaryUrl, k.primary), ...named(k.secondaryUrl, k.secondary), ...k.emails.flatMap((e) => named(k.primaryUrl, e.outcome))])];
}
