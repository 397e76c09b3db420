import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, runCli } from '../helpers/cli.js';
import { tempDir, writeTree } from '../helpers/temp.js';

/** What a new user trips over (issue 29, item 7), each one as the user meets it. */

describe('relctl status --help', () => {
  it('shows the --wait-timeout default as seconds, not as the quoted string "600"', async () => {
    const r = await runCli(['status', '--help']);
    expect(r.stdout).toContain('(default: 600 seconds)');
    expect(r.stdout).not.toContain('"600"');
    const bad = await runCli(['status', '--wait', '--wait-timeout', 'soon', '--deployment', 'd-1']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('not a number of seconds');
  });
});

describe('npm test on a fresh clone', () => {
  it('fills what its suites need itself: pretest installs the system packages and fills .cache/m2; .ci/run is the two README commands', async () => {
    const pkg = JSON.parse(await readFile(path.join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.pretest).toContain('scripts/system-deps.sh');
    expect(pkg.scripts.pretest).toContain('scripts/maven-cache.sh');
    const ci = await readFile(path.join(repoRoot, '.ci/run'), 'utf8');
    const commands = ci.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('#') && !l.startsWith('set ') && !l.startsWith('cd '));
    expect(commands).toEqual(['npm ci --no-audit --no-fund', 'npm test']);
  });
});

describe('preflight --fix on a POM in an encoding relctl does not edit', () => {
  it('names the declared encoding (Shift_JIS), and says why the fix is left to the user instead of "could not be read again"', async () => {
    await using dir = await tempDir('relctl-sjis-');
    // 日本 in Shift_JIS: not UTF-8, and not the single-byte encodings relctl writes back.
    const pom = Buffer.concat([
      Buffer.from('<?xml version="1.0" encoding="Shift_JIS"?>\n<project xmlns="http://maven.apache.org/POM/4.0.0">\n  <modelVersion>4.0.0</modelVersion>\n  <groupId>org.example</groupId>\n  <artifactId>demo</artifactId>\n  <version>1.0.0-SNAPSHOT</version>\n  <name>'),
      Buffer.from([0x93, 0xfa, 0x96, 0x7b]),
      Buffer.from('</name>\n  <distributionManagement>\n    <repository>\n      <id>central</id>\n      <url>https://oss.sonatype.org/service/local/staging/deploy/maven2/</url>\n    </repository>\n  </distributionManagement>\n</project>\n'),
    ]);
    await writeTree(dir.path, { 'pom.xml': pom });
    const r = await runCli(['preflight', '--offline', '--only', 'descriptors', '--fix', '--dry-run', '--json', '--cwd', dir.path], { home: dir.path });
    const doc = JSON.parse(r.stdout) as { declined: { code: string; why: string }[] };
    const host = doc.declined.find((d) => d.code === 'legacy-staging-host');
    expect(host?.why).toContain('is declared Shift_JIS');
    expect(host?.why).toContain('Make the change by hand');
    const all = doc.declined.map((d) => d.why).join('\n');
    expect(all).not.toContain('not valid UTF-8');
    expect(all).not.toContain('could not be read again');
  });
});

describe('preflight --fix on a project leaving OSSRH, against the sandbox', () => {
  const releaseRepository = `    <repository>
      <id>ossrh</id>
      <url>https://oss.sonatype.org/service/local/staging/deploy/maven2/</url>
    </repository>`;
  const snapshotRepository = `    <snapshotRepository>
      <id>sonatype-nexus-snapshots</id>
      <url>https://oss.sonatype.org/content/repositories/snapshots</url>
    </snapshotRepository>`;
  const pomWith = (repositories: string): string => `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>org.example</groupId>
  <artifactId>demo</artifactId>
  <version>1.0.0-SNAPSHOT</version>
  <distributionManagement>
${repositories}
  </distributionManagement>
</project>
`;
  async function fixAgainstSandbox(pom: string): Promise<{ doc: { fixed: { code: string }[]; findings: { code: string; fix: string }[] }; settings: string }> {
    const { startSandbox } = await import('./upload-helpers.js');
    const sb = await startSandbox();
    try {
      await using dir = await tempDir('relctl-fix-once-');
      await writeTree(dir.path, { 'pom.xml': pom });
      // The sandbox's services, and no token: the state of a first migration.
      const env = {
        RELCTL_STAGING_API_URL: sb.urls.stagingApiUrl,
        RELCTL_PORTAL_URL: sb.urls.portalUrl,
        RELCTL_PUBLIC_REPO_URL: sb.urls.publicRepoUrl,
        RELCTL_KEYSERVER_URL: sb.urls.keyserverUrl,
        RELCTL_SECONDARY_KEYSERVER_URL: sb.urls.secondaryKeyserverUrl,
      };
      const r = await runCli(['preflight', '--fix', '--allow-dirty', '--skip', 'signing', 'repository', '--json', '--cwd', dir.path], { home: dir.path, env });
      const doc = JSON.parse(r.stdout) as { fixed: { code: string }[]; findings: { code: string; fix: string }[] };
      return { doc, settings: await readFile(path.join(dir.path, '.m2', 'settings.xml'), 'utf8') };
    } finally {
      await sb.close();
    }
  }

  it('after adding the <server>, says once (not twice) which variables to set', async () => {
    const { doc, settings } = await fixAgainstSandbox(pomWith(releaseRepository));
    expect(doc.fixed.map((f) => f.code)).toEqual(expect.arrayContaining([expect.stringMatching(/^(server-id-mismatch|missing-credentials)$/)]));
    expect(settings).toContain('<id>central</id>');
    const credentials = doc.findings.filter((f) => f.code === 'server-id-mismatch' || f.code === 'missing-credentials');
    expect(credentials.map((f) => f.code)).toEqual(['server-id-mismatch']);
    expect(credentials[0]!.fix).toContain('Set CENTRAL_TOKEN_USERNAME and CENTRAL_TOKEN_PASSWORD');
  });

  it('gives the <snapshotRepository> id a <server> too', async () => {
    const { settings } = await fixAgainstSandbox(pomWith(`${releaseRepository}\n${snapshotRepository}`));
    expect(settings).toContain('<id>central</id>');
    expect(settings).toContain('<id>sonatype-nexus-snapshots</id>');
  });
});

describe('preflight --fix --dry-run', () => {
  it('ends with what would remain after the fix (the planned files audited), and writes nothing', async () => {
    await using dir = await tempDir('relctl-dry-after-');
    const pom = `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>org.example</groupId>
  <artifactId>demo</artifactId>
  <version>1.0.0-SNAPSHOT</version>
  <distributionManagement>
    <repository>
      <id>ossrh</id>
      <url>https://oss.sonatype.org/service/local/staging/deploy/maven2/</url>
    </repository>
  </distributionManagement>
</project>
`;
    await writeTree(dir.path, { 'pom.xml': pom });
    const args = ['preflight', '--fix', '--dry-run', '--offline', '--skip', 'signing', 'repository', '--cwd', dir.path];
    const text = await runCli(args, { home: dir.path });
    const tail = text.stdout.slice(text.stdout.lastIndexOf('\n\n'));
    expect(tail).toContain('preflight after the fix (dry run: nothing written): failed (3 errors');
    const json = await runCli([...args, '--json'], { home: dir.path });
    const doc = JSON.parse(json.stdout) as { findings: { code: string; fix: string }[]; dryRun: boolean };
    expect(doc.dryRun).toBe(true);
    const codes = doc.findings.map((f) => f.code);
    // Fixed by the plan: gone from what remains. The <server> it would add is read back as written.
    expect(codes).not.toContain('legacy-staging-host');
    expect(codes).not.toContain('legacy-staging-id');
    expect(doc.findings.find((f) => f.code === 'server-id-mismatch')?.fix).toContain('Set CENTRAL_TOKEN_USERNAME and CENTRAL_TOKEN_PASSWORD');
    expect(await readFile(path.join(dir.path, 'pom.xml'), 'utf8')).toBe(pom);
    await expect(readFile(path.join(dir.path, '.m2', 'settings.xml'), 'utf8')).rejects.toThrow(/ENOENT/);
  });
});

describe('relctl init --route staging-api on a build aimed at a retired host', () => {
  it('keeps the retired-host warning that plain init gives', async () => {
    await using dir = await tempDir('relctl-init-legacy-');
    await writeTree(dir.path, {
      'pom.xml': `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>org.example</groupId>
  <artifactId>demo</artifactId>
  <version>1.0.0-SNAPSHOT</version>
  <distributionManagement>
    <repository><id>ossrh</id><url>https://oss.sonatype.org/service/local/staging/deploy/maven2/</url></repository>
  </distributionManagement>
</project>
`,
    });
    const r = await runCli(['init', '--route', 'staging-api', '--ci', 'github', '--namespace', 'org.example', '--yes', '--dry-run', '--cwd', dir.path], { home: dir.path });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('The build still publishes to a retired OSSRH host');
  });
});

describe('the demo (relctl rehearse on examples/demo)', () => {
  it('does not open on a red error line: it first says what it does, then the preflight a real release runs', async () => {
    const { cp } = await import('node:fs/promises');
    const { spawnCli } = await import('../helpers/cli.js');
    await using dir = await tempDir('relctl-demo-first-');
    const project = path.join(dir.path, 'demo');
    await cp(path.join(repoRoot, 'examples/demo'), project, { recursive: true });
    const child = spawnCli(['rehearse', '--maven-mirror', 'http://127.0.0.1:9/', '--local-repo', path.join(dir.path, 'm2'), '--cwd', project], {
      env: { HOME: dir.path, PATH: process.env.PATH },
    });
    let err = '';
    const firstLine = await new Promise<string>((resolve, reject) => {
      child.stderr!.on('data', (chunk: Buffer) => {
        err += chunk.toString();
        if (err.includes('\n')) resolve(err.slice(0, err.indexOf('\n')));
      });
      child.once('exit', () => resolve(err.split('\n')[0] ?? ''));
      child.once('error', reject);
    });
    // The rehearsal's own build is not what this test is about: stopped here (it cleans up on SIGTERM).
    child.kill('SIGTERM');
    await child.catch(() => undefined);
    expect(firstLine).toMatch(/^Rehearsing org\.example\.relctl:relctl-demo 1\.0\.0\. First, the preflight a real release runs/);
    expect(firstLine).not.toMatch(/error/i);
  });
});
