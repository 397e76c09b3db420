/**
 * Fixtures shared by the portal-client integration tests: a real sandbox, real signed Maven
 * components, real HTTP PUTs (the legacy deploy a build tool makes), from a chosen source address.
 */
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startSandbox, type RunningSandbox, type SandboxOptions, type SandboxUser } from '../../src/sandbox/server.js';
import { createTestKey, type TestKey } from '../helpers/gpg.js';
import { tempDir, type TempDir } from '../helpers/temp.js';

export interface ComponentSpec {
  groupId: string;
  artifactId: string;
  version: string;
  /** Any Maven packaging (`maven-plugin`, `aar`…); default jar. */
  packaging?: string;
  /** Raw `<dependencies>`/`<dependencyManagement>`/`<parent>` XML placed in the POM. */
  extraPom?: string;
  developers?: boolean;
  sign?: boolean;
  checksums?: boolean;
  sources?: boolean;
  javadoc?: boolean;
  /** Skip the .asc of this file name suffix (e.g. '.jar'). */
  unsignedSuffix?: string;
  /** Corrupt the content after signing for files ending so. */
  tamperSuffix?: string;
  /** Write a wrong .sha1 for files ending so. */
  badChecksumSuffix?: string;
  /** Extension of the main artifact (default: the packaging). */
  mainExt?: string;
  description?: boolean;
}

export function pomXml(c: ComponentSpec): string {
  const dev = c.developers === false ? '' : `<developers><developer><name>Dev</name><organization>Example</organization><organizationUrl>https://example.org</organizationUrl></developer></developers>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>${c.groupId}</groupId>
  <artifactId>${c.artifactId}</artifactId>
  <version>${c.version}</version>
  <packaging>${c.packaging ?? 'jar'}</packaging>
  <name>${c.artifactId}</name>
  ${c.description === false ? '' : '<description>A test component</description>'}
  <url>https://example.org/${c.artifactId}</url>
  <licenses><license><name>Apache-2.0</name><url>https://www.apache.org/licenses/LICENSE-2.0</url></license></licenses>
  ${dev}
  <scm><url>https://example.org/scm/${c.artifactId}</url></scm>
  ${c.extraPom ?? ''}
</project>
`;
}

/** Writes a component in Maven layout under `root` and returns its files (maven path → bytes). */
export async function writeComponent(root: string, key: TestKey | undefined, c: ComponentSpec): Promise<Map<string, Buffer>> {
  const dir = `${c.groupId.replace(/\./g, '/')}/${c.artifactId}/${c.version}`;
  const base = `${c.artifactId}-${c.version}`;
  const main: Record<string, Buffer> = { [`${base}.pom`]: Buffer.from(pomXml(c)) };
  const packaging = c.packaging ?? 'jar';
  if (packaging !== 'pom') {
    main[`${base}.${c.mainExt ?? packaging}`] = Buffer.from(`PK main ${c.artifactId} ${c.version}`);
    if (c.sources !== false) main[`${base}-sources.jar`] = Buffer.from(`PK sources ${c.artifactId}`);
    if (c.javadoc !== false) main[`${base}-javadoc.jar`] = Buffer.from(`PK javadoc ${c.artifactId}`);
  }
  const out = new Map<string, Buffer>();
  await mkdir(path.join(root, dir), { recursive: true });
  for (const [name, data] of Object.entries(main)) {
    const file = path.join(root, dir, name);
    await writeFile(file, data);
    out.set(`${dir}/${name}`, data);
    if (c.checksums !== false) {
      for (const [ext, algo] of [['md5', 'md5'], ['sha1', 'sha1']] as const) {
        const wrong = ext === 'sha1' && c.badChecksumSuffix !== undefined && name.endsWith(c.badChecksumSuffix);
        const sum = Buffer.from(wrong ? '0'.repeat(40) : createHash(algo).update(data).digest('hex'));
        await writeFile(`${file}.${ext}`, sum);
        out.set(`${dir}/${name}.${ext}`, sum);
      }
    }
    if (key !== undefined && c.sign !== false && !(c.unsignedSuffix !== undefined && name.endsWith(c.unsignedSuffix))) {
      await key.sign(file);
      const { readFile } = await import('node:fs/promises');
      out.set(`${dir}/${name}.asc`, await readFile(`${file}.asc`));
    }
    if (c.tamperSuffix !== undefined && name.endsWith(c.tamperSuffix)) {
      const changed = Buffer.concat([data, Buffer.from(' tampered')]);
      await writeFile(file, changed);
      out.set(`${dir}/${name}`, changed);
    }
  }
  return out;
}

export function basic(user: SandboxUser): string {
  return `Basic ${Buffer.from(`${user.name}:${user.password}`).toString('base64')}`;
}

/** The legacy deploy: one PUT per file, as Maven's deploy plugin does, from `localAddress`. */
export async function stage(sb: RunningSandbox, files: Map<string, Buffer>, options: { user?: SandboxUser; localAddress?: string } = {}): Promise<void> {
  const user = options.user ?? sb.users[0]!;
  const agent = new Agent({ localAddress: options.localAddress ?? '127.0.0.1' });
  try {
    for (const [p, data] of files) {
      const res = await request(`${sb.urls.stagingApiUrl}/service/local/staging/deploy/maven2/${p}`, {
        method: 'PUT',
        body: data,
        headers: { authorization: basic(user) },
        dispatcher: agent,
      });
      const text = await res.body.text();
      if (res.statusCode >= 300) throw new Error(`PUT ${p}: ${res.statusCode} ${text}`);
    }
  } finally {
    await agent.close();
  }
}

/** Uploads an armored key to the primary key server (VKS API); returns the response JSON. */
export async function uploadKey(sb: RunningSandbox, armored: string): Promise<{ key_fpr: string; token: string; status: Record<string, string> }> {
  const res = await request(`${sb.urls.keyserverUrl}/vks/v1/upload`, {
    method: 'POST',
    body: JSON.stringify({ keytext: armored }),
    headers: { 'content-type': 'application/json' },
  });
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`key upload: HTTP ${res.statusCode} ${text}`);
  return JSON.parse(text) as { key_fpr: string; token: string; status: Record<string, string> };
}

/**
 * Uploads an armored key and confirms `email` through the mailed link, as a maintainer does: only
 * then does the primary key server serve it with a user id and the portal validate with it.
 */
export async function uploadKeyConfirmed(sb: RunningSandbox, armored: string, email: string): Promise<void> {
  const { token } = await uploadKey(sb, armored);
  const verify = await request(`${sb.urls.keyserverUrl}/vks/v1/request-verify`, {
    method: 'POST',
    body: JSON.stringify({ token, addresses: [email] }),
    headers: { 'content-type': 'application/json' },
  });
  const text = await verify.body.text();
  if (verify.statusCode !== 200) throw new Error(`request-verify: HTTP ${verify.statusCode} ${text}`);
  const mails = (await control(sb, 'GET', 'mail')) as { to: string; link: string }[];
  const mail = mails.filter((m) => m.to === email).pop();
  if (mail === undefined) throw new Error(`no confirmation mail to ${email}`);
  const confirmed = await request(mail.link);
  await confirmed.body.text();
  if (confirmed.statusCode !== 200) throw new Error(`confirm: HTTP ${confirmed.statusCode}`);
}

/** A control call (`/sandbox/<p>`), carrying the sandbox's control token. */
export async function control(sb: RunningSandbox, method: 'GET' | 'POST' | 'DELETE', p: string, body?: unknown): Promise<unknown> {
  const res = await request(`http://127.0.0.1:${sb.port}/sandbox/${p}`, {
    method,
    headers: { 'x-sandbox-token': sb.controlToken, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.body.text();
  return text === '' ? undefined : (JSON.parse(text) as unknown);
}

/** The RELCTL_* environment pointing every service at the sandbox, plus a token. */
export function sandboxEnv(sb: RunningSandbox, token: { name: string; password: string } = sb.users[0]!): Record<string, string> {
  return {
    RELCTL_STAGING_API_URL: sb.urls.stagingApiUrl,
    RELCTL_PORTAL_URL: sb.urls.portalUrl,
    RELCTL_PUBLIC_REPO_URL: sb.urls.publicRepoUrl,
    RELCTL_KEYSERVER_URL: sb.urls.keyserverUrl,
    RELCTL_SECONDARY_KEYSERVER_URL: sb.urls.secondaryKeyserverUrl,
    RELCTL_TOKEN_USERNAME: token.name,
    RELCTL_TOKEN_PASSWORD: token.password,
  };
}

export { startSandbox };

export interface SandboxFixture {
  sb: RunningSandbox;
  key: TestKey;
  work: TempDir;
}

/**
 * Registers the hooks of a suite that talks to one sandbox: started once with a throwaway gpg key
 * and a temp folder, reset before every test, the key re-published (and its address confirmed) on
 * the primary key server unless `publishKey` is false. `assign` hands the fixture to the suite's own variables.
 */
export function useSandboxFixture(assign: (fixture: SandboxFixture) => void, options: { sandbox?: SandboxOptions; publishKey?: boolean } = {}): void {
  let fx: Partial<SandboxFixture> = {};
  beforeAll(async () => {
    fx = { sb: await startSandbox(options.sandbox), key: await createTestKey(), work: await tempDir() };
    assign(fx as SandboxFixture);
  });
  afterAll(async () => {
    await fx.sb?.close();
    await fx.key?.cleanup();
    await fx.work?.[Symbol.asyncDispose]();
  });
  beforeEach(async () => {
    await control(fx.sb!, 'POST', 'reset');
    if (options.publishKey !== false) await uploadKeyConfirmed(fx.sb!, fx.key!.armoredPublicKey, fx.key!.email);
  });
}
