import os from 'node:os';
import path from 'node:path';
import { UsageError } from '../core/errors.js';
import { parseProperties } from '../core/gradle/properties.js';
import type { CommandContext } from '../io/command-context.js';
import { descriptorText } from '../io/descriptor.js';
import { listPublicKeys, listSecretKeys, type GpgKey, type GpgOptions } from './gpg.js';

/**
 * Which key to check: --fingerprint / RELCTL_FINGERPRINT / relctl.config.json, else the Gradle
 * signing.keyId (resolved to a fingerprint through gpg), else gpg's default secret key.
 */
export interface ResolvedSigningKey {
  fingerprint: string;
  source: string;
  /** The local key (gpg), when this machine has it: e-mails and subkeys. */
  local?: GpgKey;
  configuredKeyId?: { id: string; source: string; matches: boolean };
}

export interface ResolveInput {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Already validated and normalised by the configuration layer. */
  fingerprint?: string;
  fingerprintSource?: string;
}

/** A Gradle signing.keyId: 8 or 16 hex digits (optionally 0x), or a full fingerprint. */
export function normaliseKeyId(raw: string, where: string): string {
  const id = raw.trim().replace(/^0x/i, '').replace(/\s+/g, '').toUpperCase();
  if (!/^([0-9A-F]{8}|[0-9A-F]{16}|[0-9A-F]{40})$/.test(id)) {
    throw new UsageError(`${where}: "${raw}" is not a key id (8 or 16 hex digits) or a 40-hex-digit fingerprint.`, {
      kind: 'bad-key-id',
      fix: 'Set it to the key id shown by gpg --list-secret-keys --keyid-format short (or the full fingerprint).',
    });
  }
  return id;
}

/** Whether a key id names this key (primary or a subkey). */
export function keyIdMatches(id: string, fingerprint: string, subkeys: readonly string[] = []): boolean {
  return [fingerprint, ...subkeys].some((f) => f.toUpperCase().endsWith(id.toUpperCase()));
}

async function gradleSigningKeyId(cwd: string, env: NodeJS.ProcessEnv): Promise<{ id: string; source: string } | undefined> {
  const userHome = env.GRADLE_USER_HOME ?? path.join(env.HOME ?? os.homedir(), '.gradle');
  // The user's properties override the project's, as in Gradle.
  for (const file of [path.join(userHome, 'gradle.properties'), path.join(cwd, 'gradle.properties')]) {
    const text = descriptorText(file);
    const raw = text === undefined ? undefined : parseProperties(text).get('signing.keyId')?.value.trim();
    if (raw !== undefined && raw !== '') {
      const where = `signing.keyId in ${file}`;
      return { id: normaliseKeyId(raw, where), source: where };
    }
  }
  return undefined;
}

export async function resolveSigningKey(input: ResolveInput): Promise<ResolvedSigningKey> {
  const gpg: GpgOptions = { env: input.env };
  const configured = await gradleSigningKeyId(input.cwd, input.env);
  const secret = await listSecretKeys(gpg).catch(() => [] as GpgKey[]);
  const localOf = (fpr: string): GpgKey | undefined => secret.find((k) => k.fingerprint === fpr);

  let fingerprint: string | undefined;
  let source: string | undefined;
  let local: GpgKey | undefined;
  if (input.fingerprint !== undefined) {
    fingerprint = input.fingerprint.toUpperCase();
    source = input.fingerprintSource ?? '--fingerprint';
    local = localOf(fingerprint) ?? (await listPublicKeys(gpg, fingerprint).catch(() => []))[0];
  } else if (configured !== undefined) {
    const hits = secret.filter((k) => keyIdMatches(configured.id, k.fingerprint, k.subkeys));
    const found = hits[0] ?? (await listPublicKeys(gpg, configured.id).catch(() => []))[0];
    if (found === undefined) {
      throw new UsageError(`The ${configured.source} names key ${configured.id}, which gpg does not know.`, {
        kind: 'key-unknown',
        fix: 'Import the key into gpg, or pass the full fingerprint with --fingerprint.',
      });
    }
    fingerprint = found.fingerprint;
    source = configured.source;
    local = found;
  } else if (secret[0] !== undefined) {
    fingerprint = secret[0].fingerprint;
    source = "gpg's default secret key";
    local = secret[0];
  }
  if (fingerprint === undefined || source === undefined) {
    throw new UsageError('No signing key to check: none is configured and gpg has no secret key.', {
      kind: 'no-signing-key',
      fix: 'Pass --fingerprint <40 hex digits> (or set "fingerprint" in relctl.config.json or RELCTL_FINGERPRINT).',
    });
  }
  const out: ResolvedSigningKey = { fingerprint, source, ...(local === undefined ? {} : { local }) };
  if (configured !== undefined) {
    out.configuredKeyId = { ...configured, matches: keyIdMatches(configured.id, fingerprint, local?.subkeys ?? []) };
  }
  return out;
}

/** What resolveSigningKey needs from a command's context, naming where --fingerprint came from. */
export function signingKeyInput(ctx: CommandContext): ResolveInput {
  const src = ctx.configSources.fingerprint;
  return {
    cwd: ctx.cwd,
    env: ctx.env,
    ...(ctx.config.fingerprint === undefined ? {} : { fingerprint: ctx.config.fingerprint }),
    ...(src === undefined ? {} : { fingerprintSource: src === 'flag' ? '--fingerprint' : src === 'env' ? 'RELCTL_FINGERPRINT' : 'relctl.config.json' }),
  };
}
