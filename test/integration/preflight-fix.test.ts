/**
 * `relctl preflight --fix` end to end: the built CLI on temp git clones of fixtures, HOME isolated
 * with the Maven settings file in it (DESIGN §4, Fixes).
 */
import { execFileSync } from 'node:child_process';
import { chmod, cp, lstat, mkdir, readFile, rename, stat, symlink, writeFile } from 'node:fs/promises';
import { execa } from 'execa';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { binPath, runCli } from '../helpers/cli.js';
import { git, gitEnv, tempDir, type TempDir } from '../helpers/temp.js';

const fixtures = path.resolve(import.meta.dirname, '../fixtures/maven-fix');
const staging = 'https://ossrh-staging-api.central.sonatype.com/service/local/staging/deploy/maven2/';
const temps: TempDir[] = [];
afterEach(async () => {
  for (const t of temps.splice(0)) await t[Symbol.asyncDispose]();
});

interface Setup {
  dir: string;
  home: string;
  settings: string;
  env: Record<string, string>;
}

/** The round-trip fixture as a committed git clone, and a HOME holding a copy of its settings file. */
async function setup(): Promise<Setup> {
  const t = await tempDir('relctl-fix-');
  temps.push(t);
  const dir = path.join(t.path, 'project');
  const home = path.join(t.path, 'home');
  await cp(path.join(fixtures, 'roundtrip'), dir, { recursive: true });
  await cp(path.join(fixtures, 'home'), home, { recursive: true });
  await git(dir, home, 'init', '-q', '-b', 'main');
  await git(dir, home, 'add', '-A');
  await git(dir, home, 'commit', '-q', '-m', 'initial');
  const { HOME: _h, ...env } = gitEnv(home);
  return { dir, home, settings: path.join(home, '.m2', 'settings.xml'), env: { ...env, CENTRAL_TOKEN_USERNAME: 'fix-user-canary', CENTRAL_TOKEN_PASSWORD: 'fix-pass-canary' } };
}

const fix = (s: Setup, ...args: string[]) => runCli(['preflight', '--offline', '--fix', '--cwd', s.dir, ...args], { home: s.home, env: s.env });

/** Lines split on LF as bytes (latin1 keeps every byte): which differ, and are the others identical? */
function changedLines(before: Buffer, after: Buffer): number[] {
  const a = before.toString('latin1').split('\n');
  const b = after.toString('latin1').split('\n');
  expect(b.length).toBe(a.length);
  return a.flatMap((line, i) => (line === b[i] ? [] : [i + 1]));
}

describe('relctl preflight --fix', () => {
  it('fixes the POMs and the settings <server> on the named lines only, keeping BOM, CRLF, tabs, comments and ISO-8859-1', async () => {
    const s = await setup();
    const before = { top: await readFile(path.join(s.dir, 'pom.xml')), lib: await readFile(path.join(s.dir, 'lib/pom.xml')), settings: await readFile(s.settings) };
    const r = await fix(s, '--json');
    const doc = JSON.parse(r.stdout) as { ok: boolean; findings: { code: string }[]; fixed: { file: string; line: number; code: string; before: string; after: string }[]; written: string[] };
    expect(doc.fixed).toEqual([
      { file: 'lib/pom.xml', line: 15, code: 'legacy-staging-host', before: 'https://s01.oss.sonatype.org/content/repositories/snapshots', after: 'https://central.sonatype.com/repository/maven-snapshots/' },
      { file: 'pom.xml', line: 26, code: 'legacy-staging-id', before: 'ossrh', after: 'central' },
      { file: 'pom.xml', line: 27, code: 'legacy-staging-host', before: 'https://oss.sonatype.org/service/local/staging/deploy/maven2/', after: staging },
      { file: s.settings, line: 14, code: 'legacy-staging-id', before: 'ossrh', after: 'central' },
      // lib's own snapshot repository, now the portal's, deploys with its <server> (issue 42 item 5).
      {
        file: s.settings,
        line: 18,
        code: 'legacy-staging-host',
        before: '',
        after: '<server><id>sonatype-nexus-snapshots</id><username>${env.CENTRAL_TOKEN_USERNAME}</username><password>${env.CENTRAL_TOKEN_PASSWORD}</password></server>',
      },
    ]);
    expect(doc.written.sort()).toEqual([s.settings, 'lib/pom.xml', 'pom.xml'].sort());
    // Left: the reminder that SNAPSHOTs are enabled per namespace on the portal (a warning).
    expect(doc.findings.map((f) => f.code)).toEqual(['snapshots-need-enabling']);
    expect(r.exitCode).toBe(0);

    const after = { top: await readFile(path.join(s.dir, 'pom.xml')), lib: await readFile(path.join(s.dir, 'lib/pom.xml')), settings: await readFile(s.settings) };
    expect(changedLines(before.top, after.top)).toEqual([26, 27]);
    expect(changedLines(before.lib, after.lib)).toEqual([15]);
    // The settings file: the renamed id on line 14, and the snapshot <server> appended (checked above).
    const withoutAdded = after.settings.toString('latin1').replace(/\n[ \t]*<server>\s*<id>sonatype-nexus-snapshots<\/id>[\s\S]*?<\/server>/, '');
    expect(changedLines(before.settings, Buffer.from(withoutAdded, 'latin1'))).toEqual([14]);
    // The BOM, the CRLF of the edited lines, the trailing comment and the Latin-1 bytes are still there.
    expect([...after.top.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(after.top.toString('utf8')).toContain('\r\n\t\t\t<id>central</id>  <!-- legacy id -->\r\n');
    expect(after.lib.includes(Buffer.from('Biblioth\u00e8que', 'latin1'))).toBe(true);
    expect(after.settings.toString()).toContain('<id>github</id>');
    // No secret value reaches a file or the output.
    expect(after.settings.toString()).not.toContain('canary');
    expect(r.stdout + r.stderr).not.toContain('canary');

    // Idempotent: a second run (after committing the fix) plans nothing and writes nothing.
    await git(s.dir, s.home, 'commit', '-qam', 'fix');
    const again = await fix(s);
    expect(again.stdout).toContain('nothing to fix mechanically; no file was written');
    expect(again.exitCode).toBe(0);
    expect(await readFile(path.join(s.dir, 'pom.xml'))).toEqual(after.top);
  });

  it('--dry-run prints a diff that git apply takes and changes nothing', async () => {
    const s = await setup();
    const original = await readFile(path.join(s.dir, 'pom.xml'));
    const settingsBefore = await readFile(s.settings);
    const r = await fix(s, '--dry-run', '--json');
    const doc = JSON.parse(r.stdout) as { diff: string; dryRun: boolean; written: string[] };
    expect(doc.dryRun).toBe(true);
    expect(doc.written).toEqual([]);
    expect(await readFile(path.join(s.dir, 'pom.xml'))).toEqual(original);
    expect(await readFile(s.settings)).toEqual(settingsBefore);
    expect(doc.diff).toContain('--- a/pom.xml\n+++ b/pom.xml\n@@ -23,8 +23,8 @@\n');
    // The project part applies in the clone, and gives what --fix writes.
    const projectDiff = doc.diff.split(/(?=^--- )/m).filter((d) => !d.includes(s.settings.slice(1))).join('');
    await writeFile(path.join(s.dir, '..', 'fix.diff'), projectDiff);
    execFileSync('git', ['apply', '--check', '../fix.diff'], { cwd: s.dir });
    execFileSync('git', ['apply', '../fix.diff'], { cwd: s.dir });
    const applied = await readFile(path.join(s.dir, 'pom.xml'));
    await git(s.dir, s.home, 'checkout', '--', '.');
    expect((await fix(s)).exitCode).toBe(0);
    expect(await readFile(path.join(s.dir, 'pom.xml'))).toEqual(applied);
    const text = await fix(s, '--dry-run');
    expect(text.stdout).toContain('nothing to fix mechanically');
  });

  it('--dry-run never prints a literal secret of the settings file, even in a diff context line', async () => {
    const s = await setup();
    // A key passphrase next to the server the fix renames: relctl never read it as a secret of its own.
    const settings = (await readFile(s.settings, 'utf8')).replace('<password>${env.GITHUB_TOKEN}</password>', '<privateKey>/keys/id</privateKey><passphrase>gh-secret-canary</passphrase>');
    await writeFile(s.settings, settings);
    for (const args of [['--dry-run'], ['--dry-run', '--json']]) {
      const r = await fix(s, ...args);
      expect(r.stdout + r.stderr).not.toContain('gh-secret-canary');
      expect(r.stdout).toContain('<passphrase>***</passphrase>');
    }
    expect(await readFile(s.settings, 'utf8')).toBe(settings);
  });

  it('never adds a second <server> next to the legacy one it renames, when that one\'s variables are unset', async () => {
    const s = await setup();
    const { CENTRAL_TOKEN_USERNAME: _u, CENTRAL_TOKEN_PASSWORD: _p, ...unset } = s.env;
    const r = await runCli(['preflight', '--offline', '--fix', '--json', '--cwd', s.dir], { home: s.home, env: unset });
    const doc = JSON.parse(r.stdout) as { declined: { code: string; why: string }[] };
    const settings = await readFile(s.settings, 'utf8');
    expect(settings.match(/<id>central<\/id>/g)).toHaveLength(1);
    expect(settings).not.toContain('<id>ossrh</id>');
    expect(doc.declined).toContainEqual(expect.objectContaining({ code: 'server-id-mismatch', why: expect.stringContaining('already has a <server> "ossrh" (renamed to "central" by this fix)') }));
    // What is left is the variables to set, not a server to add.
    expect(r.exitCode).toBe(1);
  });

  it('refuses a dirty worktree unless --allow-dirty, naming the flag', async () => {
    const s = await setup();
    await writeFile(path.join(s.dir, 'NOTES.txt'), 'work in progress\n');
    const original = await readFile(path.join(s.dir, 'pom.xml'));
    const refused = await fix(s);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain('NOTES.txt');
    expect(refused.stderr).toContain('--allow-dirty');
    expect(await readFile(path.join(s.dir, 'pom.xml'))).toEqual(original);
    const json = await fix(s, '--json');
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, error: { code: 'dirty-worktree', fix: expect.stringContaining('--allow-dirty') } });
    const allowed = await fix(s, '--allow-dirty');
    expect(allowed.stdout).toContain('wrote pom.xml');
    expect(await readFile(path.join(s.dir, 'pom.xml'))).not.toEqual(original);
  });

  it('creates the settings file named in .mvn/maven.config with mode 600 and ${env.*} credentials under the id the POM now has', async () => {
    const s = await setup();
    const projectSettings = path.join(s.home, '.m2', 'ci-settings.xml');
    await mkdir(path.join(s.dir, '.mvn'));
    await writeFile(path.join(s.dir, '.mvn', 'maven.config'), `-s ${projectSettings}\n`);
    await git(s.dir, s.home, 'add', '-A');
    await git(s.dir, s.home, 'commit', '-qm', 'maven.config');
    const r = await fix(s, '--token-username-env', 'MY_USER', '--token-password-env', 'MY_PASS');
    expect(r.stdout).toContain(`wrote ${projectSettings}`);
    expect((await stat(projectSettings)).mode & 0o777).toBe(0o600);
    const written = await readFile(projectSettings, 'utf8');
    expect(written).toContain('<id>central</id>\n      <username>${env.MY_USER}</username>\n      <password>${env.MY_PASS}</password>');
    // ~/.m2/settings.xml is not the file preflight used: untouched.
    expect(await readFile(s.settings, 'utf8')).toContain('<id>ossrh</id>');
    // What is left is the variables to set, said plainly; with them set, preflight passes.
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toMatch(/server-id-mismatch[\s\S]*MY_USER, MY_PASS are not set/);
    await git(s.dir, s.home, 'commit', '-qam', 'fix');
    const ok = await runCli(['preflight', '--offline', '--cwd', s.dir], { home: s.home, env: { ...s.env, MY_USER: 'u', MY_PASS: 'p' } });
    expect(ok.exitCode).toBe(0);
  });

  it('edits a linked settings file where it lives (the link stays)', async () => {
    const s = await setup();
    const dotfiles = path.join(s.home, 'dotfiles', 'settings.xml');
    await mkdir(path.dirname(dotfiles));
    await rename(s.settings, dotfiles);
    await symlink(dotfiles, s.settings);
    const r = await fix(s, '--json');
    expect(JSON.parse(r.stdout)).toMatchObject({ written: expect.arrayContaining([s.settings]) });
    expect((await lstat(s.settings)).isSymbolicLink()).toBe(true);
    expect(await readFile(dotfiles, 'utf8')).toContain('<id>central</id>');
  });

  it('declines a settings file that .mvn/maven.config or MAVEN_ARGS names outside the project and the Maven home, and says why', async () => {
    for (const via of ['maven.config', 'MAVEN_ARGS'] as const) {
      const s = await setup();
      const elsewhere = path.join(s.home, '..', 'anything', 'settings.xml');
      const env = via === 'MAVEN_ARGS' ? { ...s.env, MAVEN_ARGS: `-s ../anything/settings.xml` } : s.env;
      if (via === 'maven.config') {
        await mkdir(path.join(s.dir, '.mvn'));
        await writeFile(path.join(s.dir, '.mvn', 'maven.config'), '-s ../anything/settings.xml\n');
        await git(s.dir, s.home, 'add', '-A');
        await git(s.dir, s.home, 'commit', '-qm', 'maven.config');
      }
      const r = await runCli(['preflight', '--offline', '--fix', '--json', '--cwd', s.dir], { home: s.home, env });
      const doc = JSON.parse(r.stdout) as { declined: { code: string; why: string }[]; written: string[] };
      await expect(stat(path.resolve(elsewhere))).rejects.toThrow('ENOENT');
      expect(doc.written.filter((f) => path.isAbsolute(f))).toEqual([]);
      expect(doc.declined).toContainEqual(expect.objectContaining({ why: expect.stringContaining('is outside the project and outside the Maven home') }));
    }
  });

  it('does not rename the settings <server> when the POM it goes with is declined (a link out of the project)', async () => {
    const s = await setup();
    const outside = path.join(s.home, 'shared-pom.xml');
    await rename(path.join(s.dir, 'pom.xml'), outside);
    await symlink(outside, path.join(s.dir, 'pom.xml'));
    await git(s.dir, s.home, 'add', '-A');
    await git(s.dir, s.home, 'commit', '-qm', 'linked pom');
    const settings = await readFile(s.settings, 'utf8');
    const r = await fix(s, '--json');
    const doc = JSON.parse(r.stdout) as { declined: { code: string; file?: string; why: string }[]; written: string[] };
    expect(await readFile(s.settings, 'utf8')).toBe(settings);
    expect(doc.written).not.toContain(s.settings);
    expect(doc.declined).toContainEqual(expect.objectContaining({ code: 'legacy-staging-id', file: s.settings, why: expect.stringContaining('outside the project; relctl does not edit it. A fix is made whole or not at all') }));
  });

  it('declines a linked settings file owned by another user, rather than replacing it with a file of its own', async () => {
    const s = await setup();
    const target = path.join(s.home, 'dotfiles', 'settings.xml');
    await mkdir(path.dirname(target));
    await rename(s.settings, target);
    await symlink(target, s.settings);
    const before = await readFile(target, 'utf8');
    if (process.getuid?.() === 0) {
      // relctl runs as nobody; the target stays root's (readable by all, as a shared file would be).
      execFileSync('chown', ['-R', '65534:65534', path.dirname(s.dir)]);
      execFileSync('chown', ['0:0', target]);
      await chmod(target, 0o644);
      const r = await execa('node', [binPath, 'preflight', '--offline', '--fix', '--json', '--cwd', s.dir], {
        env: { ...s.env, PATH: process.env.PATH ?? '', HOME: s.home, CI: 'true', NO_COLOR: '1' },
        extendEnv: false,
        reject: false,
        uid: 65534,
        gid: 65534,
      });
      const doc = JSON.parse(String(r.stdout)) as { declined: { code: string; why: string }[]; written: string[] };
      expect(doc.declined).toContainEqual(expect.objectContaining({ code: 'fix-unreadable', why: expect.stringContaining('is owned by another user (uid 0)') }));
      expect(doc.written).not.toContain(s.settings);
      expect((await stat(target)).uid).toBe(0);
    } else {
      // Not root: a file of another user cannot be made here; one that exists (root's) is declined the same way.
      const { readFixFile } = await import('../../src/io/fix-files.js');
      const theirs = path.join(s.home, 'passwd-link.xml');
      await symlink('/etc/passwd', theirs);
      expect(readFixFile('passwd-link.xml', theirs)).toMatchObject({ ok: false, why: expect.stringContaining('is owned by another user (uid 0)') });
    }
    expect(await readFile(target, 'utf8')).toBe(before);
  });

  it('declines POMs whose lines end with a lone CR whole, rather than fixing half of what they need', async () => {
    const s = await setup();
    for (const pom of ['pom.xml', 'lib/pom.xml']) {
      const bytes = await readFile(path.join(s.dir, pom));
      await writeFile(path.join(s.dir, pom), Buffer.from(bytes.toString('latin1').replace(/\r\n/g, '\n').replace(/\n/g, '\r'), 'latin1'));
    }
    await git(s.dir, s.home, 'commit', '-qam', 'classic Mac line ends');
    const before = { top: await readFile(path.join(s.dir, 'pom.xml')), lib: await readFile(path.join(s.dir, 'lib/pom.xml')), settings: await readFile(s.settings) };
    const r = await fix(s, '--json');
    const doc = JSON.parse(r.stdout) as { declined: { code: string; why: string }[]; written: string[] };
    expect(doc.written).toEqual([]);
    expect(await readFile(path.join(s.dir, 'pom.xml'))).toEqual(before.top);
    expect(await readFile(path.join(s.dir, 'lib/pom.xml'))).toEqual(before.lib);
    expect(await readFile(s.settings)).toEqual(before.settings);
    expect(doc.declined).toContainEqual(expect.objectContaining({ code: 'fix-unreadable', why: expect.stringContaining('ends lines with a lone CR') }));
  });

  it('is a usage error (exit 2) to pass --dry-run or --allow-dirty without --fix', async () => {
    const s = await setup();
    const r = await runCli(['preflight', '--offline', '--dry-run', '--cwd', s.dir], { home: s.home, env: s.env });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--fix');
  });
});
