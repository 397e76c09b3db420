import { randomBytes } from 'node:crypto';
import type { Key } from 'openpgp';
import { keyFacts, mergeKey, servedArmor } from './pgp.js';
import type { KeyFacts } from './pgp.js';

export type AddressStatus = 'unpublished' | 'pending' | 'published';

export interface Mail {
  to: string;
  subject: string;
  /** GET it to confirm the address. */
  link: string;
}

export interface PrimaryEntry extends KeyFacts {
  /** The key with every user id, as uploaded and merged. */
  armored: string;
  /** What by-fingerprint serves: only confirmed user ids (precomputed, so lookups stay sync). */
  served: string;
  addresses: Record<string, AddressStatus>;
}

export interface SecondaryEntry extends KeyFacts {
  armored: string;
}

/** Everything the key servers know; plain JSON so the sandbox can persist it. */
export interface KeyDirectoryState {
  version: 1;
  primary: PrimaryEntry[];
  secondary: SecondaryEntry[];
  /** Upload token → fingerprint (request-verify names the key by token). */
  uploadTokens: Record<string, string>;
  /** Mailed confirmation token → the key and address it confirms. */
  verifyTokens: Record<string, { fingerprint: string; address: string }>;
  mails: Mail[];
  /** Fingerprints of secondary-only keys that a validation has already met (the pass-once rule). */
  secondaryMet: string[];
}

export interface Issuer {
  fingerprint?: string;
  keyId: string;
}

export interface KeyDirectoryOptions {
  onChange?: () => void;
  /**
   * Let a primary key whose addresses were never confirmed validate signatures. Off by default:
   * keys.openpgp.org serves such a key without user ids, and Central then reports "Could not
   * find a public key by the key fingerprint" (reference/portal-api.md §D).
   */
  acceptUnconfirmed?: boolean;
}

const emptyState = (): KeyDirectoryState => ({ version: 1, primary: [], secondary: [], uploadTokens: {}, verifyTokens: {}, mails: [], secondaryMet: [] });

const token = (): string => randomBytes(16).toString('hex');

/**
 * The sandbox's two key servers: a primary one speaking keys.openpgp.org's VKS API (upload, mail
 * confirmation, lookups serving confirmed user ids only) and a secondary HKP one (any upload, full
 * keys). Mutations are serialised (openpgp work is async) and followed by `onChange`.
 */
export class KeyDirectory {
  onChange: (() => void) | undefined;
  private state: KeyDirectoryState;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly acceptUnconfirmed: boolean;

  constructor(options: KeyDirectoryOptions & { state?: KeyDirectoryState } = {}) {
    this.onChange = options.onChange;
    this.acceptUnconfirmed = options.acceptUnconfirmed === true;
    this.state = options.state ?? emptyState();
  }

  static fromJSON(data: unknown, options: KeyDirectoryOptions = {}): KeyDirectory {
    const raw = (data ?? {}) as Partial<KeyDirectoryState>;
    const state: KeyDirectoryState = {
      ...emptyState(),
      ...Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined && v !== null)),
      version: 1,
    };
    if (!Array.isArray(state.primary) || !Array.isArray(state.secondary) || !Array.isArray(state.mails) || !Array.isArray(state.secondaryMet)) {
      throw new Error('The saved key-server state is not in the expected shape.');
    }
    return new KeyDirectory({ ...options, state });
  }

  toJSON(): KeyDirectoryState {
    return structuredClone(this.state);
  }

  mails(): Mail[] {
    return this.state.mails.map((m) => ({ ...m }));
  }

  /**
   * The key a validation may use for a signature: a key on the primary server with a confirmed
   * address (served as the primary serves it), or an unconfirmed one only with acceptUnconfirmed;
   * a key only on the secondary server the FIRST time a validation meets it, never again (the
   * seed's "fails non-deterministically": it may pass from a cache once, then fails).
   */
  keyForValidation(issuer: Issuer): string | undefined {
    const id = (issuer.fingerprint ?? issuer.keyId).toUpperCase();
    const primary = this.state.primary.find((e) => e.ids.includes(id));
    if (primary !== undefined && Object.values(primary.addresses).includes('published')) return primary.served;
    if (primary !== undefined && this.acceptUnconfirmed) return primary.armored;
    const secondary = this.state.secondary.find((e) => e.ids.includes(id));
    if (secondary === undefined || this.state.secondaryMet.includes(secondary.fingerprint)) return undefined;
    this.state.secondaryMet.push(secondary.fingerprint);
    this.changed();
    return secondary.armored;
  }

  // ---- queries used by the route handlers ----

  /** A primary entry by fingerprint or long key id of its primary key or any subkey. */
  findPrimary(id: string): PrimaryEntry | undefined {
    return this.state.primary.find((e) => e.ids.includes(id.toUpperCase()));
  }

  findPrimaryByConfirmedEmail(address: string): PrimaryEntry | undefined {
    const a = address.toLowerCase();
    return this.state.primary.find((e) => e.addresses[a] === 'published');
  }

  findSecondary(id: string): SecondaryEntry | undefined {
    return this.state.secondary.find((e) => e.ids.includes(id.toUpperCase()));
  }

  findSecondaryByEmail(address: string): SecondaryEntry[] {
    const a = address.toLowerCase();
    return this.state.secondary.filter((e) => e.emails.includes(a));
  }

  fingerprintOfUploadToken(t: string): string | undefined {
    return Object.hasOwn(this.state.uploadTokens, t) ? this.state.uploadTokens[t] : undefined;
  }

  // ---- mutations ----

  /** Stores (or merges) an upload on the primary server and returns a token naming it. */
  uploadPrimary(key: Key): Promise<{ entry: PrimaryEntry; token: string }> {
    return this.serial(async () => {
      const existing = this.findPrimary(key.getFingerprint());
      const merged = await mergeKey(existing?.armored, key);
      const facts = keyFacts(merged);
      const addresses: Record<string, AddressStatus> = {};
      for (const email of facts.emails) {
        addresses[email] = existing !== undefined && Object.hasOwn(existing.addresses, email) ? existing.addresses[email]! : 'unpublished';
      }
      const armored = merged.armor();
      const entry: PrimaryEntry = { ...facts, armored, served: await servedArmor(armored, confirmed(addresses)), addresses };
      this.state.primary = [...this.state.primary.filter((e) => e !== existing), entry];
      const t = token();
      this.state.uploadTokens[t] = entry.fingerprint;
      this.changed();
      return { entry, token: t };
    });
  }

  /** Marks each address pending and mails it a confirmation link. Unknown addresses throw. */
  requestVerify(fingerprint: string, addresses: readonly string[], publicBaseUrl: string): Promise<PrimaryEntry> {
    return this.serial(async () => {
      const entry = this.findPrimary(fingerprint);
      if (entry === undefined) throw new Error(`No key with fingerprint ${fingerprint}.`);
      const wanted = addresses.map((a) => a.toLowerCase());
      // Addresses are user input: `constructor` or `__proto__` must not find Object's own members.
      const unknown = wanted.filter((a) => !Object.hasOwn(entry.addresses, a));
      if (unknown.length > 0) throw new Error(`Not an address of key ${entry.fingerprint}: ${unknown.join(', ')}`);
      for (const address of wanted) {
        if (entry.addresses[address] === 'published') continue;
        entry.addresses[address] = 'pending';
        const t = token();
        this.state.verifyTokens[t] = { fingerprint: entry.fingerprint, address };
        const host = new URL(publicBaseUrl).host;
        this.state.mails.push({ to: address, subject: `Verify ${address} for your key on ${host}`, link: `${publicBaseUrl}/verify/${t}` });
      }
      this.changed();
      return entry;
    });
  }

  /** Follows a mailed link: the address becomes published (searchable, served in the key). */
  confirm(verifyToken: string): Promise<{ entry: PrimaryEntry; address: string } | undefined> {
    return this.serial(async () => {
      const target = Object.hasOwn(this.state.verifyTokens, verifyToken) ? this.state.verifyTokens[verifyToken] : undefined;
      if (target === undefined) return undefined;
      const entry = this.findPrimary(target.fingerprint);
      if (entry === undefined) return undefined;
      delete this.state.verifyTokens[verifyToken];
      entry.addresses[target.address] = 'published';
      entry.served = await servedArmor(entry.armored, confirmed(entry.addresses));
      this.changed();
      return { entry, address: target.address };
    });
  }

  /** HKP upload to the secondary server: stored with every user id, merged on re-upload. */
  uploadSecondary(key: Key): Promise<{ entry: SecondaryEntry; inserted: boolean }> {
    return this.serial(async () => {
      const existing = this.findSecondary(key.getFingerprint());
      const merged = await mergeKey(existing?.armored, key);
      const entry: SecondaryEntry = { ...keyFacts(merged), armored: merged.armor() };
      this.state.secondary = [...this.state.secondary.filter((e) => e !== existing), entry];
      this.changed();
      return { entry, inserted: existing === undefined };
    });
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private changed(): void {
    this.onChange?.();
  }
}

function confirmed(addresses: Record<string, AddressStatus>): string[] {
  return Object.entries(addresses)
    .filter(([, status]) => status === 'published')
    .map(([address]) => address);
}
