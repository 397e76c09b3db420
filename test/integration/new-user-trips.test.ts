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
