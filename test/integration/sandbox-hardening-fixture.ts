import * as openpgp from 'openpgp';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import type { TestKey } from '../helpers/gpg.js';
import { bearer, call, pomXml, withChecksums, type Reply } from './sandbox-fixture.js';

/**
 * Helpers of the sandbox hardening suites: components signed in-process with the test key's
 * secret (gpg per file would make a 40-component deployment take seconds to build), and small
 * wrappers over the staging and portal calls.
 */

export type Signer = (data: Uint8Array) => Promise<Buffer>;

/** Signs with the real gpg-made key, exported once and used through openpgp. */
export async function signerOf(key: TestKey): Promise<Signer> {
  const armoredKey = await key.gpg(['--armor', '--export-secret-keys', key.fingerprint]);
  const signingKeys = await openpgp.readPrivateKey({ armoredKey });
  return async (data) =>
    Buffer.from(
      await openpgp.sign({ message: await openpgp.createMessage({ binary: data }), signingKeys, detached: true, format: 'armored' }),
    );
}

/** A complete jar component (pom, jar, sources, javadoc, checksums, signatures); jars of `jarBytes`. */
export async function component(sign: Signer, g: string, a: string, v: string, jarBytes = 64): Promise<Map<string, Uint8Array>> {
  const dir = `${g.replaceAll('.', '/')}/${a}/${v}/${a}-${v}`;
  const jar = (kind: string): Buffer => Buffer.concat([Buffer.from(`${kind} of ${a} `), Buffer.alloc(jarBytes, 7)]);
  const files = new Map<string, Uint8Array>([
    [`${dir}.pom`, Buffer.from(pomXml(g, a, v))],
    [`${dir}.jar`, jar('jar')],
    [`${dir}-sources.jar`, jar('sources')],
    [`${dir}-javadoc.jar`, jar('javadoc')],
  ]);
  for (const [p, data] of [...files]) files.set(`${p}.asc`, await sign(data));
  return withChecksums(files);
}

/** `count` components `c0..c<count-1>` of group `g`, merged into one file map. */
export async function components(sign: Signer, g: string, count: number, jarBytes = 64): Promise<Map<string, Uint8Array>> {
  const all = new Map<string, Uint8Array>();
  for (let i = 0; i < count; i++) for (const [p, d] of await component(sign, g, `c${i}`, '1.0.0', jarBytes)) all.set(p, d);
  return all;
}

export async function search(sandbox: RunningSandbox, query: string, auth = bearer('sandbox', 'sandbox')): Promise<Reply> {
  return call(`${sandbox.urls.stagingApiUrl}/manual/search/repositories?${query}`, { auth });
}

export async function status(sandbox: RunningSandbox, id: string, auth = bearer('sandbox', 'sandbox')): Promise<Record<string, unknown>> {
  return (await call(`${sandbox.urls.portalUrl}/api/v1/publisher/status?id=${id}`, { method: 'POST', auth })).json() as Record<string, unknown>;
}

export function publicFile(sandbox: RunningSandbox, mavenPath: string): Promise<Reply> {
  return call(`${sandbox.urls.publicRepoUrl}/${mavenPath}`);
}
