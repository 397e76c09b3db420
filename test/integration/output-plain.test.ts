/**
 * What a repository's files can make relctl print (DESIGN §3): control and bidi characters never
 * reach the terminal, a log or a report; the start of a file that is not XML is never quoted; a
 * `--fix --dry-run` diff masks secrets in its context lines. The built CLI, raw bytes (the shared
 * runCli helper strips colour sequences, which would hide an injected one).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { binPath } from '../helpers/cli.js';
import { git, gitEnv, tempDir, type TempDir } from '../helpers/temp.js';

const temps: TempDir[] = [];
afterEach(async () => {
  for (const t of temps.splice(0)) await t[Symbol.asyncDispose]();
});

interface Project {
  dir: string;
  home: string;
  outside: string;
}

async function project(pom: string, files: Record<string, string> = {}): Promise<Project> {
  const t = await tempDir('relctl-plain-');
  temps.push(t);
  const dir = path.join(t.path, 'project');
  const home = path.join(t.path, 'home');
  await mkdir(path.join(home, '.m2'), { recursive: true });
  await mkdir(dir);
  await writeFile(path.join(dir, 'pom.xml'), pom);
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), text);
  }
  await git(dir, home, 'init', '-q', '-b', 'main');
  await git(dir, home, 'add', '-A');
  await git(dir, home, 'commit', '-q', '-m', 'initial');
  return { dir, home, outside: t.path };
}

async function relctl(p: Project, args: string[], env: Record<string, string> = {}): Promise<{ stdout: string; stderr: string; exitCode: number }> {
  const { HOME: _h, ...base } = gitEnv(p.home);
  const r = await execa('node', [binPath, ...args, '--cwd', p.dir], {
    env: { PATH: process.env.PATH ?? '', ...base, HOME: p.home, CI: 'true', NO_COLOR: '1', ...env },
    extendEnv: false,
    reject: false,
    timeout: 60_000,
  });
  return { stdout: String(r.stdout), stderr: String(r.stderr), exitCode: r.exitCode ?? -1 };
}

const pomWith = (inside: string): string => `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>org.example.plain</groupId>
  <artifactId>plain</artifactId>
  <version>1.0.0-SNAPSHOT</version>
${inside}
</project>
`;

// ESC (a screen clear and a title), BEL, the one-byte CSI U+009B, a right-to-left override.
const hostile = 'evil\u001b[2J\u001b]0;owned\u0007\u009b31m\u202egnp.exe';
const forbidden = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

describe('text from files is plain text in every output', () => {
  it('a module name with escape and bidi characters reaches no format with them (text, --json, github, sarif, junit, gitlab)', async () => {
    const p = await project(pomWith(`  <packaging>pom</packaging>\n  <modules><module>${hostile}</module></modules>`));
    const formats: string[][] = [[], ['--json'], ['--format', 'github'], ['--format', 'sarif'], ['--format', 'junit'], ['--format', 'gitlab']];
    for (const format of formats) {
      const r = await relctl(p, ['preflight', '--offline', '--skip', 'credentials', 'signing', ...format]);
      const shown = r.stdout + r.stderr;
      expect(shown, format.join(' ')).toContain('module-missing');
      expect(shown, format.join(' ')).toContain('evil');
      expect(forbidden.test(shown), `${format.join(' ')}: ${JSON.stringify(shown)}`).toBe(false);
      // JSON documents carry no escaped control either (a consumer would decode it back).
      if (format.includes('--json') || format.includes('sarif') || format.includes('gitlab')) expect(r.stdout).not.toMatch(/\\u00(?:1b|07|9b)|\\u202e/i);
    }
  });

  it('a -s settings file that is not XML (-s /etc/shadow) is reported without a byte of its content, also in SARIF', async () => {
    const p = await project(pomWith(''));
    const shadow = path.join(p.outside, 'shadow');
    await writeFile(shadow, 'root:$6$ghp_ShadowCanary0123456789abcdef:19000:0:99999:7:::\n');
    await mkdir(path.join(p.dir, '.mvn'));
    await writeFile(path.join(p.dir, '.mvn', 'maven.config'), `-s ${shadow}\n`);
    await git(p.dir, p.home, 'add', '-A');
    await git(p.dir, p.home, 'commit', '-qm', 'maven.config');
    for (const format of [[], ['--json'], ['--format', 'sarif'], ['--format', 'github'], ['--format', 'junit'], ['--format', 'gitlab']]) {
      const r = await relctl(p, ['preflight', '--offline', '--skip', 'credentials', 'signing', ...format]);
      expect(r.stdout + r.stderr, format.join(' ')).toContain('xml-malformed');
      expect(r.stdout + r.stderr, format.join(' ')).not.toMatch(/root:|ShadowCanary|\$6\$/);
    }
  });

  it('masks credentials of a mirror URL and secret-named properties in the --fix --dry-run diff context lines', async () => {
    const p = await project(
      pomWith(`  <repositories><repository><id>mirror</id><url>https://deploy:mirror-pass-canary@repo.example.org/maven2/</url></repository></repositories>
  <properties><gpg.passphrase>gpg-pass-canary</gpg.passphrase><sonatypeToken>sonatype-token-canary</sonatypeToken><gpg.keyname>ABCDEF01</gpg.keyname></properties>
  <distributionManagement>
    <repository><id>central</id><url>https://oss.sonatype.org/service/local/staging/deploy/maven2/</url></repository>
  </distributionManagement>`),
    );
    for (const args of [['--dry-run'], ['--dry-run', '--json']]) {
      const r = await relctl(p, ['preflight', '--offline', '--skip', 'credentials', 'signing', '--fix', ...args]);
      const shown = r.stdout + r.stderr;
      expect(shown).toContain('ossrh-staging-api.central.sonatype.com');
      expect(shown).toContain('gpg.passphrase');
      for (const canary of ['gpg-pass-canary', 'sonatype-token-canary', 'mirror-pass-canary']) expect(shown, args.join(' ')).not.toContain(canary);
      // Not a secret by its name: shown as it is.
      expect(shown).toContain('ABCDEF01');
    }
  });
});
