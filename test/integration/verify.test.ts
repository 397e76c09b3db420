import { cp, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, runCli } from '../helpers/cli.js';
import { createTestKey, type TestKey } from '../helpers/gpg.js';
import { tempDir, type TempDir } from '../helpers/temp.js';
import { pomXml, sandboxEnv, stage, startSandbox, uploadKeyConfirmed, writeComponent, type ComponentSpec } from './upload-helpers.js';
import type { Finding as JsonFinding } from '../../src/core/findings.js';

type Sb = Awaited<ReturnType<typeof startSandbox>>;
let sb: Sb;
let key: TestKey;
let stranger: TestKey;
let work: TempDir;

beforeAll(async () => {
  work = await tempDir();
  // The public repository already holds org.example:published:1.0.0.
  const seed = path.join(work.path, 'seed');
  await writeComponent(seed, undefined, { groupId: 'org.example', artifactId: 'published', version: '1.0.0', packaging: 'pom', checksums: false });
  sb = await startSandbox({ seedRepo: seed });
  key = await createTestKey();
  stranger = await createTestKey({ name: 'not uploaded' });
  await uploadKeyConfirmed(sb, key.armoredPublicKey, key.email);
});
afterAll(async () => {
  await sb?.close();
  await key?.cleanup();
  await stranger?.cleanup();
  await work?.[Symbol.asyncDispose]();
});

const g = 'org.example';

describe('relctl verify', () => {
  it('passes a complete, signed staging folder (exit 0)', async () => {
    const dir = path.join(work.path, 'good');
    await writeComponent(dir, key, { groupId: g, artifactId: 'good', version: '1.0.0' });
    const r = await runCli(['verify', '--dir', dir, '--cwd', work.path], { env: sandboxEnv(sb) });
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('verify (1 component): passed');
  });

  it('reports every rule code on real files, each on its component, and exits 1', async () => {
    const dir = path.join(work.path, 'bad');
    const specs: [string, Partial<ComponentSpec>, TestKey][] = [
      ['missing-signature', { unsignedSuffix: '-sources.jar' }, key],
      ['invalid-signature', { tamperSuffix: '-javadoc.jar', checksums: false }, key],
      ['key-not-on-primary', {}, stranger],
      ['missing-checksum', { checksums: false }, key],
      ['bad-checksum', { badChecksumSuffix: '.pom' }, key],
      ['missing-sources', { sources: false }, key],
      ['missing-javadoc', { javadoc: false }, key],
      ['packaging-mismatch', { packaging: 'war', mainExt: 'jar' }, key],
      ['missing-developers', { developers: false }, key],
      ['missing-pom-metadata', { description: false }, key],
      ['snapshot-version', { version: '1.0.0-SNAPSHOT' }, key],
    ];
    for (const [code, spec, k] of specs) {
      await writeComponent(dir, k, { groupId: g, artifactId: code, version: '1.0.0', ...spec });
    }
    await writeComponent(dir, key, { groupId: g, artifactId: 'published', version: '1.0.0' });
    const r = await runCli(['verify', '--dir', dir, '--json', '--cwd', work.path], { env: sandboxEnv(sb) });
    expect(r.exitCode, r.stderr).toBe(1);
    const doc = JSON.parse(r.stdout) as { ok: boolean; findings: JsonFinding[]; components: { purl: string }[] };
    expect(doc.ok).toBe(false);
    expect(doc.components).toHaveLength(specs.length + 1);
    for (const [code] of specs) {
      expect(doc.findings.filter((f) => f.module === `${g}:${code}`).map((f) => f.code), code).toContain(code);
    }
    expect(doc.findings.find((f) => f.module === `${g}:published`)?.code).toBe('already-published');
    const sig = doc.findings.find((f) => f.code === 'missing-signature')!;
    expect(sig.file).toBe('bad/org/example/missing-signature/1.0.0/missing-signature-1.0.0-sources.jar');
    expect(doc.findings.every((f) => f.fix.length > 10)).toBe(true);

    const text = await runCli(['verify', '--dir', dir, '--cwd', work.path], { env: sandboxEnv(sb) });
    expect(text.stdout).toContain('Developers information is missing');
    expect(text.stderr).toContain('Do not upload');
  });

  it('applies the portal\'s rules, no more: jar-like packagings ship .jar, aar/nbm/archetype need no javadoc, and a dependency without a version is found', async () => {
    const dir = path.join(work.path, 'portal-rules');
    for (const packaging of ['maven-archetype', 'maven-plugin', 'bundle', 'eclipse-plugin', 'hk2-jar']) {
      await writeComponent(dir, key, { groupId: g, artifactId: packaging, version: '1.0.0', packaging, mainExt: 'jar', ...(packaging === 'maven-archetype' ? { javadoc: false } : {}) });
    }
    await writeComponent(dir, key, { groupId: g, artifactId: 'android', version: '1.0.0', packaging: 'aar', sources: false, javadoc: false });
    // Managed by the deployed parent: given. Missing everywhere: the portal's error, one per dependency.
    await writeComponent(dir, key, {
      groupId: g, artifactId: 'deps-parent', version: '1.0.0', packaging: 'pom',
      extraPom: '<dependencyManagement><dependencies><dependency><groupId>org.slf4j</groupId><artifactId>slf4j-api</artifactId><version>2.0.9</version></dependency></dependencies></dependencyManagement>',
    });
    await writeComponent(dir, key, {
      groupId: g, artifactId: 'deps', version: '1.0.0',
      extraPom: `<parent><groupId>${g}</groupId><artifactId>deps-parent</artifactId><version>1.0.0</version></parent>
        <dependencies>
          <dependency><groupId>org.slf4j</groupId><artifactId>slf4j-api</artifactId></dependency>
          <dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter</artifactId><scope>test</scope></dependency>
          <dependency><groupId>com.example</groupId><artifactId>versioned</artifactId><version>\${versioned.version}</version></dependency>
        </dependencies>`,
    });
    const r = await runCli(['verify', '--dir', dir, '--json', '--cwd', work.path], { env: sandboxEnv(sb) });
    const doc = JSON.parse(r.stdout) as { ok: boolean; findings: JsonFinding[] };
    expect(doc.findings.map((f) => `${f.module} ${f.code} ${f.message}`)).toEqual([
      `${g}:deps dependency-version-missing Dependency version information is missing for dependency: org.junit.jupiter:junit-jupiter`,
    ]);
    expect(r.exitCode).toBe(1);

    // The sandbox's portal applies the same rules to the same files.
    const fixture = path.join(work.path, 'portal-rules-staged');
    const staged = new Map<string, Buffer>();
    for (const packaging of ['maven-plugin', 'hk2-jar']) {
      for (const [p, b] of await writeComponent(fixture, key, { groupId: g, artifactId: `staged-${packaging}`, version: '1.0.0', packaging, mainExt: 'jar' })) staged.set(p, b);
    }
    await stage(sb, staged);
    const up = await runCli(['upload', '--group-id', g, '--yes', '--json', '--cwd', work.path], { env: sandboxEnv(sb) });
    expect(up.exitCode, up.stdout + up.stderr).toBe(0);
    const id = (JSON.parse(up.stdout) as { deploymentId: string }).deploymentId;
    const st = await runCli(['status', '--deployment', id, '--wait', '--json', '--cwd', work.path], { env: sandboxEnv(sb) });
    expect(JSON.parse(st.stdout)).toMatchObject({ state: 'VALIDATED' });
  });

  it("finds a Maven release checkout's target folders and maps them by POM coordinates", async () => {
    const root = path.join(work.path, 'mvnproject');
    const spec = { groupId: g, artifactId: 'lib', version: '2.0.0' };
    await mkdir(path.join(root, 'lib', 'target'), { recursive: true });
    await writeFile(
      path.join(root, 'pom.xml'),
      pomXml({ ...spec, artifactId: 'parent', packaging: 'pom' }).replace('<packaging>pom</packaging>', '<packaging>pom</packaging><modules><module>lib</module></modules>'),
    );
    await writeFile(path.join(root, 'lib', 'pom.xml'), pomXml(spec));
    // Build output: jar, sources, javadoc and signatures; no checksums (Maven writes those while deploying).
    const staged = path.join(work.path, 'mvnstage');
    await writeComponent(staged, key, { ...spec, checksums: false });
    const { readdir, copyFile } = await import('node:fs/promises');
    const from = path.join(staged, 'org/example/lib/2.0.0');
    for (const f of await readdir(from)) await copyFile(path.join(from, f), path.join(root, 'lib', 'target', f));
    const parentDir = path.join(work.path, 'mvnparent');
    await writeComponent(parentDir, key, { ...spec, artifactId: 'parent', packaging: 'pom', checksums: false });
    for (const f of ['parent-2.0.0.pom.asc']) await copyFile(path.join(parentDir, 'org/example/parent/2.0.0', f), path.join(root, f));
    await mkdir(path.join(root, 'target'), { recursive: true });
    await copyFile(path.join(parentDir, 'org/example/parent/2.0.0/parent-2.0.0.pom'), path.join(root, 'target', 'parent-2.0.0.pom'));
    await copyFile(path.join(parentDir, 'org/example/parent/2.0.0/parent-2.0.0.pom.asc'), path.join(root, 'target', 'parent-2.0.0.pom.asc'));
    const r = await runCli(['verify', '--json', '--cwd', root], { env: sandboxEnv(sb) });
    const doc = JSON.parse(r.stdout) as { ok: boolean; findings: JsonFinding[]; components: { purl: string }[] };
    expect(doc.components.map((c) => c.purl).sort()).toEqual(['pkg:maven/org.example/lib@2.0.0', 'pkg:maven/org.example/parent@2.0.0']);
    expect(doc.findings.filter((f) => f.module === 'org.example:lib')).toEqual([]);
  });

  it("checks a Gradle build's Maven-layout publication folder (best effort)", async () => {
    const root = path.join(work.path, 'gradleproject');
    await mkdir(root, { recursive: true });
    await writeFile(path.join(root, 'settings.gradle'), "rootProject.name = 'glib'\n");
    await writeComponent(path.join(root, 'lib', 'build', 'staging-deploy'), key, { groupId: g, artifactId: 'glib', version: '3.0.0', javadoc: false });
    const r = await runCli(['verify', '--json', '--cwd', root], { env: sandboxEnv(sb) });
    expect(r.exitCode, r.stderr).toBe(1);
    const doc = JSON.parse(r.stdout) as { findings: JsonFinding[] };
    expect(doc.findings.map((f) => f.code)).toEqual(['missing-javadoc']);
  });

  it('says what to do when there is nothing to verify (exit 2)', async () => {
    const empty = path.join(work.path, 'emptyproject');
    await mkdir(empty, { recursive: true });
    await writeFile(path.join(empty, 'pom.xml'), pomXml({ groupId: g, artifactId: 'x', version: '1.0.0' }));
    const r = await runCli(['verify', '--cwd', empty], { env: sandboxEnv(sb) });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--dir');
  });

  it('on an unbuilt reactor says "nothing built yet: run the build first" (exit 2) instead of failing the parent alone', async () => {
    const reactor = path.join(work.path, 'unbuilt');
    await cp(path.join(repoRoot, 'examples', 'demo'), reactor, { recursive: true, filter: (src) => !/[\\/](target|\.relctl)$/.test(src) });
    const r = await runCli(['verify', '--cwd', reactor], { env: sandboxEnv(sb) });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain('Nothing built yet: run the build first');
    expect(r.stderr).toContain('core/target');
    const json = await runCli(['verify', '--json', '--cwd', reactor], { env: sandboxEnv(sb) });
    expect(json.exitCode).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, error: { code: 'nothing-built' } });
  });
});
