import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, beforeAll } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { createTestKey, type TestKey } from '../helpers/gpg.js';

/** Test helpers for the sandbox suites: HTTP calls as clients make them, and signed components. */

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  bytes: Buffer;
  json: () => any;
}

const agents = new Map<string, Agent>();
/** An HTTP agent whose connections leave from `address` (127.0.0.2 is another "machine"). */
function agentFrom(address: string): Agent {
  let agent = agents.get(address);
  if (agent === undefined) {
    agent = new Agent({ localAddress: address });
    agents.set(address, agent);
  }
  return agent;
}

export function basic(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}
export function bearer(user: string, password: string): string {
  return `Bearer ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}

export async function call(
  url: string,
  options: { method?: string; auth?: string; body?: string | Uint8Array; from?: string; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.auth !== undefined) headers.authorization = options.auth;
  const r = await request(url, {
    method: (options.method ?? 'GET') as 'GET',
    headers,
    ...(options.body === undefined ? {} : { body: options.body }),
    ...(options.from === undefined ? {} : { dispatcher: agentFrom(options.from) }),
  });
  const bytes = Buffer.from(await r.body.arrayBuffer());
  const text = bytes.toString('utf8');
  return { status: r.statusCode, headers: r.headers, text, bytes, json: () => JSON.parse(text) };
}

export function deployUrl(sandbox: RunningSandbox, mavenPath: string): string {
  return `${sandbox.urls.stagingApiUrl}/service/local/staging/deploy/maven2/${mavenPath}`;
}

/** PUTs every file as Maven would (Basic auth); returns the statuses that were not 201. */
export async function putAll(sandbox: RunningSandbox, files: ReadonlyMap<string, Uint8Array>, auth = basic('sandbox', 'sandbox')): Promise<string[]> {
  const bad: string[] = [];
  for (const [p, data] of files) {
    const r = await call(deployUrl(sandbox, p), { method: 'PUT', auth, body: data });
    if (r.status !== 201) bad.push(`${p}: ${r.status} ${r.text}`);
  }
  return bad;
}

export async function manualUpload(sandbox: RunningSandbox, namespace: string, options: { from?: string; type?: string; auth?: string } = {}): Promise<Reply> {
  const q = options.type === undefined ? '' : `?publishing_type=${options.type}`;
  return call(`${sandbox.urls.stagingApiUrl}/manual/upload/defaultRepository/${namespace}${q}`, {
    method: 'POST',
    auth: options.auth ?? bearer('sandbox', 'sandbox'),
    ...(options.from === undefined ? {} : { from: options.from }),
  });
}

/** A state-changing control call (`POST|DELETE /sandbox/<what>`) with the sandbox's token. */
export async function controlCall(sandbox: RunningSandbox, method: 'POST' | 'DELETE', what: string, body?: string): Promise<Reply> {
  return call(`http://127.0.0.1:${sandbox.port}/sandbox/${what}`, {
    method,
    headers: { 'x-sandbox-token': sandbox.controlToken },
    ...(body === undefined ? {} : { body }),
  });
}

export async function publisher(sandbox: RunningSandbox, method: string, call_: string, auth = bearer('sandbox', 'sandbox')): Promise<Reply> {
  return call(`${sandbox.urls.portalUrl}/api/v1/publisher/${call_}`, { method, auth });
}

/** Uploads the key to the primary server and confirms its address through the mailed link. */
export async function publishKeyConfirmed(sandbox: RunningSandbox, key: Pick<TestKey, 'armoredPublicKey' | 'email'>): Promise<void> {
  const up = await call(`${sandbox.urls.keyserverUrl}/vks/v1/upload`, {
    method: 'POST',
    body: JSON.stringify({ keytext: key.armoredPublicKey }),
    headers: { 'content-type': 'application/json' },
  });
  if (up.status !== 200) throw new Error(`upload: ${up.status} ${up.text}`);
  const verify = await call(`${sandbox.urls.keyserverUrl}/vks/v1/request-verify`, {
    method: 'POST',
    body: JSON.stringify({ token: up.json().token, addresses: [key.email] }),
    headers: { 'content-type': 'application/json' },
  });
  if (verify.status !== 200) throw new Error(`request-verify: ${verify.status} ${verify.text}`);
  const origin = new URL(sandbox.urls.keyserverUrl).origin;
  const mails = (await call(`${origin}/sandbox/mail`)).json() as { to: string; link: string }[];
  const mail = mails.filter((m) => m.to === key.email).pop();
  if (mail === undefined) throw new Error('no confirmation mail');
  const confirmed = await call(mail.link);
  if (confirmed.status !== 200) throw new Error(`confirm: ${confirmed.status}`);
}

const hex = (algorithm: string, data: Uint8Array): string => createHash(algorithm).update(data).digest('hex');

/** Adds `.md5` and `.sha1` for every file that is not itself a checksum or a signature. */
export function withChecksums(files: Map<string, Uint8Array>): Map<string, Uint8Array> {
  for (const [p, data] of [...files]) {
    if (/\.(md5|sha1|asc)$/.test(p)) continue;
    files.set(`${p}.md5`, Buffer.from(hex('md5', data)));
    files.set(`${p}.sha1`, Buffer.from(hex('sha1', data)));
  }
  return files;
}

/** Signs (or re-signs) every artifact file of `files` with `key`, replacing the .asc files. */
export async function signAll(files: Map<string, Uint8Array>, key: TestKey): Promise<Map<string, Uint8Array>> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'relctl-sign-'));
  try {
    for (const [p, data] of [...files]) {
      if (/\.(md5|sha1|asc)$/.test(p)) continue;
      const f = path.join(dir, 'f');
      await writeFile(f, data);
      files.set(`${p}.asc`, await readFile(await key.sign(f)));
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return files;
}

export function pomXml(g: string, a: string, v: string, packaging = 'jar', extra = ''): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>${g}</groupId><artifactId>${a}</artifactId><version>${v}</version><packaging>${packaging}</packaging>
  <name>${a}</name><description>A test component.</description><url>https://example.org/${a}</url>
  <licenses><license><name>Apache-2.0</name><url>https://www.apache.org/licenses/LICENSE-2.0.txt</url></license></licenses>
  <developers><developer><name>Dev</name><organization>Example</organization><organizationUrl>https://example.org</organizationUrl></developer></developers>
  <scm><url>https://example.org/scm/${a}</url></scm>${extra}
</project>
`;
}

/** A complete, signed jar component (pom, jar, sources, javadoc, checksums, signatures). */
export async function signedComponent(key: TestKey, g: string, a: string, v: string): Promise<Map<string, Uint8Array>> {
  const dir = `${g.replaceAll('.', '/')}/${a}/${v}/${a}-${v}`;
  const files = new Map<string, Uint8Array>([
    [`${dir}.pom`, Buffer.from(pomXml(g, a, v))],
    [`${dir}.jar`, Buffer.from(`jar of ${a}`)],
    [`${dir}-sources.jar`, Buffer.from(`sources of ${a}`)],
    [`${dir}-javadoc.jar`, Buffer.from(`javadoc of ${a}`)],
  ]);
  return withChecksums(await signAll(files, key));
}

/**
 * Sends one request exactly as written (no URL normalisation: clients such as fetch resolve
 * `..` and `%2e%2e` before sending, attackers do not) and returns the raw response text.
 */
export async function rawRequest(port: number, head: string, body = ''): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(`${head}\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n${body}`));
    let data = '';
    socket.on('data', (d) => (data += d.toString()));
    socket.on('end', () => resolve(data));
    socket.on('error', reject);
  });
}

/** Hooks for a test file: a sandbox and a throwaway key published and confirmed on it (read the fields inside tests). */
export function useSandboxWithKey(options: Parameters<typeof startSandbox>[0] = {}): { sandbox: RunningSandbox; key: TestKey } {
  const world = {} as { sandbox: RunningSandbox; key: TestKey };
  beforeAll(async () => {
    world.sandbox = await startSandbox(options);
    world.key = await createTestKey();
    await publishKeyConfirmed(world.sandbox, world.key);
  });
  afterAll(async () => {
    await world.sandbox?.close();
    await world.key?.cleanup();
  });
  return world;
}
