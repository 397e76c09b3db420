import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { createTestKey, type TestKey } from '../helpers/gpg.js';
import { gitRepo, tempDir, type TempDir } from '../helpers/temp.js';
import { control, pomXml, sandboxEnv, startSandbox, uploadKey } from './upload-helpers.js';

/** Preflight states the signing key's packet version and algorithm (real gpg keys: v4). */
let key: TestKey;
let work: TempDir;
let project: string;

beforeAll(async () => {
  key = await createTestKey();
  work = await tempDir();
  project = path.join(work.path, 'project');
  await gitRepo(project, work.path, { 'pom.xml': pomXml({ groupId: 'org.example', artifactId: 'demo', version: '1.0.1-SNAPSHOT' }) });
});
afterAll(async () => {
  await key?.cleanup();
  await work?.[Symbol.asyncDispose]();
});

describe('signing key facts', () => {
  it('offline, from the local keyring: v4 EdDSA, and no key-format-unsupported; --skip signing leaves the key alone', async () => {
    const env = { GNUPGHOME: key.gnupgHome };
    const r = await runCli(['preflight', '--offline', '--verbose', '--json', '--cwd', project], { home: work.path, env });
    expect(r.stderr).toContain(`signing key ${key.fingerprint}: v4, EdDSA (ed25519) (the local keyring)`);
    const doc = JSON.parse(r.stdout) as { findings: { code: string }[] };
    expect(doc.findings.map((f) => f.code)).not.toContain('key-format-unsupported');
    const skipped = await runCli(['preflight', '--offline', '--verbose', '--skip', 'signing', '--cwd', project], { home: work.path, env });
    expect(skipped.stderr).not.toContain('signing key ');
  });

  it('online, as the primary key server serves it', async () => {
    const sb = await startSandbox();
    try {
      await control(sb, 'POST', 'reset');
      await uploadKey(sb, key.armoredPublicKey);
      const r = await runCli(['preflight', '--verbose', '--json', '--cwd', project, '--fingerprint', key.fingerprint], {
        home: work.path,
        env: { GNUPGHOME: key.gnupgHome, ...sandboxEnv(sb) },
      });
      const host = new URL(sandboxEnv(sb).RELCTL_KEYSERVER_URL!).host;
      expect(r.stderr).toContain(`signing key ${key.fingerprint}: v4, EdDSA (Ed25519, legacy encoding) (${host} (as served))`);
      expect((JSON.parse(r.stdout) as { findings: { code: string }[] }).findings.map((f) => f.code)).not.toContain('key-format-unsupported');
    } finally {
      await sb.close();
    }
  });
});
