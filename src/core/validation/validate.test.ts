import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { formatFailure } from './format.js';
import type { SignatureVerdict, ValidationEnvironment } from './types.js';
import { validateDeployment } from './validate.js';

const enc = new TextEncoder();

function pom(body: string, coords = '<groupId>org.example</groupId><artifactId>demo</artifactId><version>1.0.0</version>'): string {
  return `<?xml version="1.0"?>\n<project xmlns="http://maven.apache.org/POM/4.0.0">${coords}${body}</project>`;
}

const fullMetadata =
  '<name>Demo</name><description>A demo</description><url>https://example.org</url>' +
  '<licenses><license><name>Apache-2.0</name></license></licenses>' +
  '<developers><developer><id>me</id></developer></developers><scm><url>https://example.org/scm</url></scm>';

/** Adds a file with its .md5, .sha1 and a fake .asc the fake verifier accepts. */
function addSigned(files: Map<string, Uint8Array>, path: string, content: string): void {
  const data = enc.encode(content);
  files.set(path, data);
  files.set(`${path}.md5`, enc.encode(createHash('md5').update(data).digest('hex')));
  files.set(`${path}.sha1`, enc.encode(createHash('sha1').update(data).digest('hex')));
  files.set(`${path}.asc`, enc.encode(`good:${createHash('sha1').update(data).digest('hex')}`));
}

/** A signature is "valid" when it names the data's sha1, "no key" when it says so. */
function fakeEnv(options: { published?: string[]; remotePoms?: Record<string, string> } = {}): ValidationEnvironment & { fetched: string[] } {
  const fetched: string[] = [];
  return {
    fetched,
    async fetchPom(g, a, v) {
      fetched.push(`${g}:${a}:${v}`);
      return options.remotePoms?.[`${g}:${a}:${v}`];
    },
    async isPublished(g, a, v) {
      return options.published?.includes(`${g}:${a}:${v}`) ?? false;
    },
    async verifySignature(_file, data, signature): Promise<SignatureVerdict> {
      const text = new TextDecoder().decode(signature);
      if (text === 'nokey') return { status: 'no-public-key', keyId: 'ABCDEF0123456789' };
      const sha1 = createHash('sha1');
      for await (const chunk of data) sha1.update(chunk);
      const ok = text === `good:${sha1.digest('hex')}`;
      return ok ? { status: 'valid', fingerprint: 'F'.repeat(40) } : { status: 'invalid' };
    },
  };
}

const base = 'org/example/demo/1.0.0/demo-1.0.0';

function jarComponent(pomXml = pom(fullMetadata)): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  addSigned(files, `${base}.pom`, pomXml);
  addSigned(files, `${base}.jar`, 'jar bytes');
  addSigned(files, `${base}-sources.jar`, 'sources');
  addSigned(files, `${base}-javadoc.jar`, 'javadoc');
  return files;
}

async function codes(files: Map<string, Uint8Array>, env = fakeEnv()): Promise<string[]> {
  const verdicts = await validateDeployment(files, env);
  return verdicts.flatMap((v) => v.violations.map((x) => `${x.code}: ${x.message}`));
}

describe('validateDeployment', () => {
  it('accepts a complete signed component and lists its files as the expected artifacts', async () => {
    const files = jarComponent();
    files.set('org/example/demo/maven-metadata.xml', enc.encode('<metadata/>'));
    const [verdict, ...rest] = await validateDeployment(files, fakeEnv());
    expect(rest).toEqual([]);
    expect(verdict).toMatchObject({ groupId: 'org.example', artifactId: 'demo', version: '1.0.0', packaging: 'jar', purl: 'pkg:maven/org.example/demo@1.0.0', violations: [] });
    expect(verdict!.files).toHaveLength(16);
    expect(verdict!.files[0]).toBe(`${base}-javadoc.jar`);
  });

  it('reports each missing POM element with the portal text', async () => {
    expect(await codes(jarComponent(pom('')))).toEqual([
      'missing-pom-metadata: Project name is missing',
      'missing-pom-metadata: Project description is missing',
      'missing-pom-metadata: Project URL is not defined',
      'missing-pom-metadata: License information is missing',
      'missing-developers: Developers information is missing',
      'missing-pom-metadata: SCM URL is not defined',
    ]);
  });

  it('resolves the parent from the same deployment, then from the public repository', async () => {
    const parentXml = pom(fullMetadata.replace('Demo', 'Parent'), '<groupId>org.example</groupId><artifactId>parent</artifactId><version>7</version><packaging>pom</packaging>');
    const child = pom('<name>Demo</name>', '<parent><groupId>org.example</groupId><artifactId>parent</artifactId><version>7</version></parent><artifactId>demo</artifactId><version>1.0.0</version>');
    const inDeployment = jarComponent(child);
    addSigned(inDeployment, 'org/example/parent/7/parent-7.pom', parentXml);
    const env = fakeEnv();
    expect(await codes(inDeployment, env)).toEqual([]);
    expect(env.fetched).toEqual([]);

    const remote = fakeEnv({ remotePoms: { 'org.example:parent:7': parentXml } });
    expect(await codes(jarComponent(child), remote)).toEqual([]);
    expect(remote.fetched).toEqual(['org.example:parent:7']);

    // Parent nowhere: its metadata does not count.
    expect(await codes(jarComponent(child))).toContain('missing-developers: Developers information is missing');
    // The name is never inherited.
    const nameless = jarComponent(child.replace('<name>Demo</name>', ''));
    addSigned(nameless, 'org/example/parent/7/parent-7.pom', parentXml);
    expect(await codes(nameless)).toEqual(['missing-pom-metadata: Project name is missing']);
  });

  it('checks packaging against the main artifact (a war module packaged as jar fails)', async () => {
    const files = jarComponent(pom(`${fullMetadata}<packaging>jar</packaging>`));
    files.delete(`${base}.jar`);
    addSigned(files, `${base}.war`, 'war bytes');
    expect(await codes(files)).toEqual(["packaging-mismatch: Packaging 'jar' does not match the main artifact of the component: expected demo-1.0.0.jar"]);
    const war = jarComponent(pom(`${fullMetadata}<packaging>war</packaging>`));
    war.delete(`${base}.jar`);
    addSigned(war, `${base}.war`, 'war bytes');
    expect(await codes(war)).toEqual([]);
  });

  it('needs no main artifact, sources or javadoc for packaging pom', async () => {
    const files = new Map<string, Uint8Array>();
    addSigned(files, `${base}.pom`, pom(`${fullMetadata}<packaging>pom</packaging>`));
    const [verdict] = await validateDeployment(files, fakeEnv());
    expect(verdict).toMatchObject({ packaging: 'pom', violations: [] });
  });

  it('requires sources and javadoc jars otherwise', async () => {
    const files = jarComponent();
    for (const suffix of ['', '.md5', '.sha1', '.asc']) {
      files.delete(`${base}-sources.jar${suffix}`);
      files.delete(`${base}-javadoc.jar${suffix}`);
    }
    expect(await codes(files)).toEqual([
      'missing-sources: Sources must be provided but not found in entries',
      'missing-javadoc: Javadocs must be provided but not found in entries',
    ]);
  });

  it('requires matching md5 and sha1 for every file, tolerating upper case and a trailing file name', async () => {
    const files = jarComponent();
    const jarSha1 = createHash('sha1').update('jar bytes').digest('hex');
    files.set(`${base}.jar.sha1`, enc.encode(`${jarSha1.toUpperCase()}  demo-1.0.0.jar\n`));
    expect(await codes(files)).toEqual([]);
    files.delete(`${base}.pom.md5`);
    files.set(`${base}-sources.jar.sha1`, enc.encode('0'.repeat(40)));
    files.set(`${base}-sources.jar.sha256`, enc.encode('0'.repeat(64)));
    expect(await codes(files)).toEqual([
      'bad-checksum: Invalid sha1 checksum for file: demo-1.0.0-sources.jar',
      'bad-checksum: Invalid sha256 checksum for file: demo-1.0.0-sources.jar',
      'missing-checksum: Missing md5 checksum for file: demo-1.0.0.pom',
    ]);
  });

  it('requires a verifying signature for every artifact file', async () => {
    const files = jarComponent();
    files.delete(`${base}.jar.asc`);
    files.set(`${base}-javadoc.jar.asc`, enc.encode('good:wrong'));
    files.set(`${base}.pom.asc`, enc.encode('nokey'));
    const verdicts = await validateDeployment(files, fakeEnv());
    expect(verdicts[0]!.violations).toEqual([
      { code: 'invalid-signature', file: `${base}-javadoc.jar.asc`, message: 'Invalid signature for file: demo-1.0.0-javadoc.jar.asc - Failed to verify the PGP signature. Please contact support for assistance.' },
      { code: 'missing-signature', file: `${base}.jar`, message: 'Missing signature for file: demo-1.0.0.jar' },
      {
        code: 'key-not-on-primary',
        file: `${base}.pom.asc`,
        message: 'Invalid signature for file: demo-1.0.0.pom.asc - Could not find a public key by the key fingerprint. Please ensure it is uploaded to one of the PGP servers we support.',
      },
    ]);
  });

  it('refuses SNAPSHOT versions and components already published', async () => {
    const snap = new Map<string, Uint8Array>();
    const sbase = 'org/example/demo/1.1.0-SNAPSHOT/demo-1.1.0-SNAPSHOT';
    addSigned(snap, `${sbase}.pom`, pom(`${fullMetadata}<packaging>pom</packaging>`, '<groupId>org.example</groupId><artifactId>demo</artifactId><version>1.1.0-SNAPSHOT</version>'));
    expect(await codes(snap)).toEqual(['snapshot-version: version cannot be a SNAPSHOT']);
    expect(await codes(jarComponent(), fakeEnv({ published: ['org.example:demo:1.0.0'] }))).toEqual([
      "already-published: Component with package url: 'pkg:maven/org.example/demo@1.0.0' already exists",
    ]);
  });

  it('reports files outside the Maven layout, a missing POM and an unreadable one', async () => {
    const files = jarComponent();
    addSigned(files, 'org/example/demo/1.0.0/other-1.0.0.jar', 'stray');
    addSigned(files, 'loose.jar', 'loose');
    const out = await codes(files);
    expect(out).toContain("packaging-mismatch: File path 'org/example/demo/1.0.0' is not valid for file 'other-1.0.0.jar'");
    expect(out).toContain("packaging-mismatch: File path '' is not valid for file 'loose.jar'");

    const noPom = jarComponent();
    noPom.delete(`${base}.pom`);
    expect(await codes(noPom)).toContain('missing-pom-metadata: POM file is missing: expected demo-1.0.0.pom');
    const broken = jarComponent('<project><name>x</project>');
    expect((await codes(broken))[0]).toMatch(/^missing-pom-metadata: POM file demo-1.0.0.pom could not be parsed: /);
  });

  it('flags a POM whose coordinates do not match its folder', async () => {
    const files = jarComponent(pom(fullMetadata, '<groupId>org.other</groupId><artifactId>demo</artifactId><version>1.0.0</version>'));
    expect(await codes(files)).toEqual(["packaging-mismatch: File path 'org/example/demo/1.0.0' is not valid for file 'demo-1.0.0.pom'"]);
    // Interpolated coordinates are compared after interpolation (CI-friendly ${revision}).
    const revision = jarComponent(pom(`${fullMetadata}<properties><revision>1.0.0</revision></properties>`, '<groupId>org.example</groupId><artifactId>demo</artifactId><version>${revision}</version>'));
    expect(await codes(revision)).toEqual([]);
  });

  it('gives the same verdicts whatever the order of the input', async () => {
    const files = jarComponent(pom(''));
    addSigned(files, 'org/example/app/1.0.0/app-1.0.0.pom', pom('', '<groupId>org.example</groupId><artifactId>app</artifactId><version>1.0.0</version>'));
    const reversed = new Map([...files].reverse());
    const a = await validateDeployment(files, fakeEnv());
    const b = await validateDeployment(reversed, fakeEnv());
    expect(b).toEqual(a);
    expect(a.map((v) => v.artifactId)).toEqual(['app', 'demo']);
    expect(formatFailure(a).split('\n').slice(0, 3)).toEqual([
      'Deployment reached an unexpected status: Failed',
      '- pkg:maven/org.example/app@1.0.0',
      '  - Project name is missing',
    ]);
  });
});
