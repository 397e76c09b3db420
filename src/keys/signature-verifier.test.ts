import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import * as openpgp from 'openpgp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestKey, type TestKey } from '../../test/helpers/gpg.js';
import { tempDir, type TempDir } from '../../test/helpers/temp.js';
import { validateDeployment } from '../core/validation/index.js';
import { createSignatureVerifier, readSignatureIssuer, type SignatureIssuer } from './signature-verifier.js';

let key: TestKey;
let dir: TempDir;
let data: Uint8Array;
let primarySig: Uint8Array;
let binarySig: Uint8Array;
let subkeySig: Uint8Array;
let subkeyFingerprint: string;
let armoredWithSubkey: string;

beforeAll(async () => {
  key = await createTestKey();
  dir = await tempDir();
  const file = path.join(dir.path, 'demo-1.0.0.jar');
  await writeFile(file, 'the jar bytes');
  data = new Uint8Array(await readFile(file));
  primarySig = new Uint8Array(await readFile(await key.sign(file)));
  await key.gpg(['--output', `${file}.sig`, '--detach-sign', '--local-user', key.fingerprint, file]);
  binarySig = new Uint8Array(await readFile(`${file}.sig`));
  // A signing subkey: gpg then signs with it, and the signature names the subkey's fingerprint.
  await key.gpg(['--passphrase', '', '--quick-add-key', key.fingerprint, 'ed25519', 'sign', 'never']);
  await key.gpg(['--yes', '--armor', '--output', `${file}.sub.asc`, '--detach-sign', file]);
  subkeySig = new Uint8Array(await readFile(`${file}.sub.asc`));
  armoredWithSubkey = await key.gpg(['--armor', '--export', key.fingerprint]);
  const listing = await key.gpg(['--list-keys', '--with-colons', key.fingerprint]);
  subkeyFingerprint = listing.split('\n').filter((l) => l.startsWith('fpr:'))[1]!.split(':')[9]!;
}, 60_000);

afterAll(async () => {
  await key?.cleanup();
  await dir?.[Symbol.asyncDispose]();
});

function recordingLookup(answer: string | undefined): { lookup: (i: SignatureIssuer) => Promise<string | undefined>; calls: SignatureIssuer[] } {
  const calls: SignatureIssuer[] = [];
  return { calls, lookup: async (issuer) => (calls.push(issuer), answer) };
}

describe('createSignatureVerifier', () => {
  it('accepts a gpg signature (armored or binary) and looks the key up once', async () => {
    const { lookup, calls } = recordingLookup(key.armoredPublicKey);
    const verify = createSignatureVerifier(lookup);
    const verdicts = await Promise.all([primarySig, binarySig, primarySig].map((sig) => verify('demo-1.0.0.jar', data, sig)));
    expect(verdicts).toEqual(Array(3).fill({ status: 'valid', fingerprint: key.fingerprint }));
    expect(calls).toEqual([{ fingerprint: key.fingerprint, keyId: key.keyId }]);
  });

  it('rejects a signature over other bytes', async () => {
    const verify = createSignatureVerifier(recordingLookup(key.armoredPublicKey).lookup);
    expect(await verify('demo-1.0.0.jar', new TextEncoder().encode('tampered'), primarySig)).toEqual({ status: 'invalid' });
  });

  it('verifies data streamed in many chunks (a big file read from disk), and finds one changed byte in it', async () => {
    const big = path.join(dir.path, 'big-1.0.0.jar');
    const content = Buffer.alloc(5 * 1024 * 1024 + 17, 'relctl ');
    await writeFile(big, content);
    const sig = new Uint8Array(await readFile(await key.sign(big)));
    async function* chunks(bytes: Buffer): AsyncGenerator<Uint8Array> {
      for (let at = 0; at < bytes.length; at += 64 * 1024) yield bytes.subarray(at, at + 64 * 1024);
    }
    // gpg signs with the signing subkey beforeAll added.
    const verify = createSignatureVerifier(recordingLookup(armoredWithSubkey).lookup);
    expect(await verify('big-1.0.0.jar', chunks(content), sig)).toEqual({ status: 'valid', fingerprint: key.fingerprint });
    const changed = Buffer.from(content);
    changed[3 * 1024 * 1024] = 0x58;
    expect(await verify('big-1.0.0.jar', chunks(changed), sig)).toEqual({ status: 'invalid' });
  });

  it('answers invalid for a corrupt .asc, never throws', async () => {
    const verify = createSignatureVerifier(recordingLookup(key.armoredPublicKey).lookup);
    const armored = new TextDecoder().decode(primarySig);
    const corrupt = [new Uint8Array(), new TextEncoder().encode('not a signature'), new TextEncoder().encode(armored.slice(0, 120)), primarySig.subarray(0, 40), binarySig.subarray(0, 30)];
    for (const sig of corrupt) expect(await verify('demo-1.0.0.jar', data, sig)).toEqual({ status: 'invalid' });
  });

  it('reports no-public-key when no server has the key, or hands back another key', async () => {
    expect(await createSignatureVerifier(recordingLookup(undefined).lookup)('f', data, primarySig)).toEqual({ status: 'no-public-key', keyId: key.keyId });
    const other = await openpgp.generateKey({ userIDs: [{ email: 'other@example.invalid' }], format: 'armored' });
    expect(await createSignatureVerifier(recordingLookup(other.publicKey).lookup)('f', data, primarySig)).toEqual({ status: 'no-public-key', keyId: key.keyId });
  });

  it('verifies a signature made by a signing subkey against the primary key', async () => {
    const { lookup, calls } = recordingLookup(armoredWithSubkey);
    const verify = createSignatureVerifier(lookup);
    expect(await verify('f', data, subkeySig)).toEqual({ status: 'valid', fingerprint: key.fingerprint });
    expect(calls[0]!.fingerprint).toBe(subkeyFingerprint);
    expect(await readSignatureIssuer(subkeySig)).toEqual({ fingerprint: subkeyFingerprint, keyId: subkeyFingerprint.slice(-16) });
    // The same key serves the primary key's signatures without a second lookup.
    expect(await verify('f', data, primarySig)).toEqual({ status: 'valid', fingerprint: key.fingerprint });
    expect(calls).toHaveLength(1);
  });

  it('verifies against a key served without user ids (unconfirmed on keys.openpgp.org)', async () => {
    const stripped = await openpgp.readKey({ armoredKey: armoredWithSubkey });
    stripped.users = [];
    const verify = createSignatureVerifier(recordingLookup(stripped.armor()).lookup);
    expect(await verify('f', data, primarySig)).toEqual({ status: 'valid', fingerprint: key.fingerprint });
    expect(await verify('f', data, subkeySig)).toEqual({ status: 'valid', fingerprint: key.fingerprint });
    expect(await verify('f', new TextEncoder().encode('tampered'), subkeySig)).toEqual({ status: 'invalid' });
  });
});

describe('expired keys', () => {
  it('accepts a signature made while the key was valid, as gpg --verify does', async () => {
    await using home = await tempDir('relctl-gpgx-');
    const gpg = async (args: string[]): Promise<string> => {
      return String((await execa('gpg', ['--batch', '--no-tty', ...args], { env: { GNUPGHOME: home.path } })).stdout);
    };
    try {
      // Made on 2020-01-01 with a one-day expiry, signing that same day.
      await gpg(['--faked-system-time', '20200101T000000', '--passphrase', '', '--quick-gen-key', 'old <old@example.invalid>', 'ed25519', 'sign', '1d']);
      const file = path.join(home.path, 'a.jar');
      await writeFile(file, 'old bytes');
      await gpg(['--faked-system-time', '20200101T060000', '--armor', '--detach-sign', '-o', `${file}.asc`, file]);
      const armored = await gpg(['--armor', '--export', 'old@example.invalid']);
      const verify = createSignatureVerifier(async () => armored);
      const verdict = await verify('a.jar', new Uint8Array(await readFile(file)), new Uint8Array(await readFile(`${file}.asc`)));
      expect(verdict.status).toBe('valid');
    } finally {
      await execa('gpgconf', ['--kill', 'gpg-agent'], { env: { GNUPGHOME: home.path }, reject: false });
    }
  });
});

describe('the rule set with real gpg signatures', () => {
  it('passes a signed pom-packaged component and names the tampered or unknown-key files', async () => {
    const folder = path.join(dir.path, 'org/example/parent/1.0.0');
    await mkdir(folder, { recursive: true });
    const pomText = `<project><groupId>org.example</groupId><artifactId>parent</artifactId><version>1.0.0</version><packaging>pom</packaging>
<name>Parent</name><description>d</description><url>https://example.org</url><licenses><license><name>MIT</name></license></licenses>
<developers><developer><id>me</id></developer></developers><scm><url>https://example.org/scm</url></scm></project>`;
    const pomFile = path.join(folder, 'parent-1.0.0.pom');
    await writeFile(pomFile, pomText);
    await key.sign(pomFile);
    const files = new Map<string, Uint8Array>();
    const rel = 'org/example/parent/1.0.0/parent-1.0.0.pom';
    files.set(rel, new Uint8Array(await readFile(pomFile)));
    files.set(`${rel}.asc`, new Uint8Array(await readFile(`${pomFile}.asc`)));
    files.set(`${rel}.md5`, new TextEncoder().encode(createHash('md5').update(pomText).digest('hex')));
    files.set(`${rel}.sha1`, new TextEncoder().encode(createHash('sha1').update(pomText).digest('hex')));
    const env = (answer: string | undefined) => ({
      fetchPom: async () => undefined,
      isPublished: async () => false,
      verifySignature: createSignatureVerifier(async () => answer),
    });
    expect((await validateDeployment(files, env(armoredWithSubkey)))[0]!.violations).toEqual([]);
    expect((await validateDeployment(files, env(undefined)))[0]!.violations.map((v) => v.code)).toEqual(['key-not-on-primary']);
    files.set(rel, new TextEncoder().encode(pomText.replace('Parent', 'Changed')));
    const codes = (await validateDeployment(files, env(armoredWithSubkey)))[0]!.violations.map((v) => v.code);
    expect(codes).toEqual(['bad-checksum', 'bad-checksum', 'invalid-signature']);
  });
});
