import type { KeyCheckFacts, LookupOutcome } from './online-types.js';
import { isRelctlError } from '../core/errors.js';
import type { KeyServers, Lookup } from '../portal/keyservers.js';
import type { ResolvedSigningKey } from './fingerprint.js';
import { readArmoredKey } from './key-facts.js';
import { gpgKeyFormat } from '../core/key-format.js';

/**
 * The lookups of `keys check`, all at once: primary by fingerprint, secondary by fingerprint and
 * primary by each e-mail address of the local key. Only when the local key is unknown do the
 * e-mail lookups wait for the served key (its addresses are needed first).
 */
async function outcome(p: Promise<Lookup>): Promise<{ outcome: LookupOutcome; armored?: string; status?: number }> {
  try {
    const r = await p;
    return r.found ? { outcome: 'found', armored: r.armored } : { outcome: 'not-found', status: r.status };
  } catch (error) {
    return { outcome: { error: isRelctlError(error) ? error.message : String(error) } };
  }
}

export async function gatherKeyFacts(
  keyOrPromise: ResolvedSigningKey | Promise<ResolvedSigningKey>,
  servers: KeyServers,
  urls: { keyserverUrl: string; secondaryKeyserverUrl: string },
  options: { now?: Date; knownFingerprint?: string } = {},
): Promise<KeyCheckFacts> {
  // With the fingerprint known up front (flag/config), the fingerprint lookups start before gpg
  // has listed the local key; openpgp loads meanwhile. The wall time stays about one lookup.
  const openpgpReady = import('openpgp').catch(() => undefined);
  const early = options.knownFingerprint?.toUpperCase();
  const earlyPrimary = early === undefined ? undefined : outcome(servers.primaryByFingerprint(early));
  const earlySecondary = early === undefined ? undefined : outcome(servers.secondaryByFingerprint(early));
  const key = await keyOrPromise;
  const fpr = key.fingerprint;
  const now = options.now ?? new Date();
  const localEmails = key.local?.emails ?? [];
  const primaryP = early === fpr && earlyPrimary !== undefined ? earlyPrimary : outcome(servers.primaryByFingerprint(fpr));
  const secondaryP = early === fpr && earlySecondary !== undefined ? earlySecondary : outcome(servers.secondaryByFingerprint(fpr));
  const emailPs = localEmails.map((address) => outcome(servers.primaryByEmail(address)).then((r) => ({ address, outcome: r.outcome })));
  const [primary, secondary, firstEmails] = await Promise.all([primaryP, secondaryP, Promise.all(emailPs)]);
  await openpgpReady;

  let emails = firstEmails;
  const servedArmored = primary.armored ?? secondary.armored;
  const served = servedArmored === undefined ? undefined : await readArmoredKey(servedArmored);
  if (localEmails.length === 0 && primary.outcome === 'found' && served !== undefined && served.emails.length > 0) {
    emails = await Promise.all(served.emails.map((address) => outcome(servers.primaryByEmail(address)).then((r) => ({ address, outcome: r.outcome }))));
  }

  const facts: KeyCheckFacts = {
    fingerprint: fpr,
    source: key.source,
    primary: primary.outcome,
    ...(primary.status === undefined ? {} : { primaryStatus: primary.status }),
    secondary: secondary.outcome,
    emails,
    primaryUrl: urls.keyserverUrl,
    uploadFormUrl: servers.uploadFormUrl(),
    secondaryUrl: urls.secondaryKeyserverUrl,
    checkedAt: now.toISOString(),
  };
  if (key.configuredKeyId !== undefined) facts.configuredKeyId = key.configuredKeyId;
  // The expiry as served (a refreshed expiry counts); a key served without user ids may not say
  // it (openpgp needs a self-signed user id), then the secondary copy, then the local key.
  const fallback = served?.expiresAt === undefined && secondary.armored !== undefined && primary.armored !== undefined ? await readArmoredKey(secondary.armored) : undefined;
  const localExp = key.local === undefined ? undefined : key.local.expires === undefined ? null : new Date(key.local.expires * 1000).toISOString();
  if (served !== undefined) {
    const expiresAt = served.expiresAt ?? fallback?.expiresAt ?? localExp ?? null;
    facts.served = {
      from: primary.armored !== undefined ? 'primary' : 'secondary',
      hasUserIds: served.hasUserIds,
      expiresAt,
      signingExpiresAt: served.expiresAt === undefined ? expiresAt : (served.signingExpiresAt ?? null),
      ...(served.format === undefined ? {} : { format: served.format }),
    };
  } else if (key.local !== undefined) {
    const format = gpgKeyFormat(key.local.fingerprint, key.local.algorithm, key.local.bits, key.local.curve);
    facts.served = { from: 'local', hasUserIds: key.local.uids.length > 0, expiresAt: localExp ?? null, signingExpiresAt: localExp ?? null, ...(format === undefined ? {} : { format }) };
  }
  return facts;
}
