import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeTree } from '../helpers/temp.js';
import { codes, fixtureCopy, partialHome, preflight } from './preflight-gradle-fixture.js';

describe('relctl preflight on Gradle builds', () => {
  it('passes a correct Groovy multi-project build: none of the Gradle, repository or version codes fire', async () => {
    await using dir = await fixtureCopy('groovy-multi', { git: true });
    const r = await preflight(dir.path);
    // Only the reminder that the portal's snapshot repository needs SNAPSHOTs enabled (a warning).
    expect(r.findings).toEqual([expect.objectContaining({ code: 'snapshots-need-enabling', severity: 'warning', file: 'build.gradle' })]);
    expect(r.exitCode).toBe(0);
  });

  it('reports a Kotlin DSL build with legacy hosts, a jar-packaged web project, a release version and incomplete user properties', async () => {
    await using dir = await fixtureCopy('kotlin-legacy', { git: true });
    const r = await preflight(dir.path, { home: partialHome });
    expect(r.exitCode).toBe(1);
    const byCode = (code: string) => r.findings.filter((f) => f.code === code);
    expect(byCode('legacy-staging-host').map((f) => [f.file, f.line, f.module])).toEqual([
      ['build.gradle.kts', 14, ':'],
      ['build.gradle.kts', 14, ':'],
    ]);
    expect(byCode('legacy-staging-host').map((f) => f.message).join('\n')).toContain('s01.oss.sonatype.org');
    expect(byCode('packaging-mismatch')).toEqual([
      expect.objectContaining({ severity: 'error', file: 'web/build.gradle.kts', line: 2, module: ':web' }),
    ]);
    expect(byCode('not-snapshot')).toEqual([expect.objectContaining({ file: 'build.gradle.kts', line: 7 })]);
    const [missing] = byCode('gradle-properties-missing');
    expect(missing!.message).toContain('ossrhPassword');
    expect(missing!.message).toContain('signing.password');
    expect(missing!.message).not.toContain('signing.keyId,');
    const [ring] = byCode('signing-keyring-missing');
    expect(ring!.message).toMatch(/names ~\/\.gnupg\/missing-secring\.gpg, but \/\S+\/\.gnupg\/missing-secring\.gpg is not a file/);
    // Nothing about the app project, nothing secret.
    expect(r.findings.some((f) => f.module === ':app')).toBe(false);
    expect(r.stdout + r.stderr).not.toContain('fixture-password-not-real');
  });

  it('reports distribution-url when the release repository is not the configured staging API', async () => {
    await using dir = await fixtureCopy('groovy-multi', { git: true });
    const r = await preflight(dir.path, { env: { RELCTL_STAGING_API_URL: 'http://127.0.0.1:9/sandbox' } });
    expect(codes(r)).toEqual(['distribution-url', 'snapshots-need-enabling']);
    expect(r.findings[0]).toMatchObject({ file: 'build.gradle', line: 21, module: ':' });
    expect(r.findings[0]!.fix).toContain('http://127.0.0.1:9/sandbox/service/local/staging/deploy/maven2/');
  });

  it('reads the user properties from GRADLE_USER_HOME when it is set', async () => {
    await using dir = await fixtureCopy('groovy-multi', { git: true });
    const r = await preflight(dir.path, { env: { GRADLE_USER_HOME: path.join(partialHome, '.gradle') } });
    expect(codes(r).sort()).toEqual(['gradle-properties-missing', 'signing-keyring-missing', 'snapshots-need-enabling']);
    expect(r.findings[0]!.message).toContain('$GRADLE_USER_HOME/gradle.properties');
    expect(r.findings[0]!.message).toContain('ossrhPassword');
    // With the token in RELCTL_TOKEN_*, relctl hands it to Gradle: only the signing keys are asked for.
    const token = await preflight(dir.path, {
      env: { GRADLE_USER_HOME: path.join(partialHome, '.gradle'), RELCTL_TOKEN_USERNAME: 'canary-user', RELCTL_TOKEN_PASSWORD: 'canary-secret-value' },
    });
    const [missing] = token.findings.filter((f) => f.code === 'gradle-properties-missing');
    expect(missing!.message).not.toContain('ossrhPassword');
    expect(missing!.message).toContain('signing.password');
    expect(token.stdout + token.stderr).not.toContain('canary-secret-value');
  });

  it('treats a missing user gradle.properties as gradle-properties-missing', async () => {
    await using dir = await fixtureCopy('groovy-multi', { git: true });
    await using home = await fixtureCopy(undefined, { git: false });
    const r = await preflight(dir.path, { home: home.path });
    expect(codes(r).sort()).toEqual(['gradle-properties-missing', 'snapshots-need-enabling']);
    expect(r.findings[0]!.message).toContain('~/.gradle/gradle.properties does not exist');
  });

  it('survives bad input: garbage scripts, unbalanced braces, an unreadable gradle.properties, no settings file', async () => {
    await using dir = await fixtureCopy(undefined, { git: true });
    const garbage = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256));
    await writeFile(path.join(dir.path, 'build.gradle'), Buffer.concat([Buffer.from("plugins { id 'java'\npublishing { repositories { maven { url '"), garbage]));
    await mkdir(path.join(dir.path, 'gradle.properties')); // a directory where a file belongs
    const r = await preflight(dir.path);
    expect([0, 1]).toContain(r.exitCode);
    expect(r.stderr).toContain('gradle.properties could not be read');
    // No version and no readable way of publishing: nothing to judge, and no crash.
    expect(codes(r)).not.toContain('not-snapshot');
    await rm(path.join(dir.path, 'gradle.properties'), { recursive: true });
    await writeFile(path.join(dir.path, 'settings.gradle'), "include 'a'\n}}}{{{\ninclude(");
    await mkdir(path.join(dir.path, 'a'));
    await writeFile(path.join(dir.path, 'a', 'build.gradle.kts'), '\u0000\u0001"""unterminated');
    const again = await preflight(dir.path);
    expect([0, 1]).toContain(again.exitCode);
    // A 9 MB generated script is skipped with a note rather than read whole.
    await writeFile(path.join(dir.path, 'a', 'build.gradle.kts'), 'x'.repeat(9 * 1024 * 1024));
    const huge = await preflight(dir.path);
    expect(huge.stderr).toContain('a/build.gradle.kts could not be read (larger than 8 MB)');
  });

  it('follows script plugins (apply from:) for repositories and plugins, reporting them in the applied file', async () => {
    await using dir = await fixtureCopy(undefined, { git: false });
    await writeTree(dir.path, {
      'settings.gradle': "rootProject.name = 'scripted'\ninclude 'web'\n",
      'gradle.properties': 'version=3.1.0-SNAPSHOT\ngroup=org.example\n',
      'build.gradle': 'subprojects {\n    apply from: "$rootDir/gradle/publish.gradle"\n}\n',
      'gradle/publish.gradle': "apply plugin: 'war'\npublishing {\n  repositories {\n    maven { url 'https://s01.oss.sonatype.org/service/local/staging/deploy/maven2/' }\n  }\n}\n",
      'web/build.gradle': '// configured from the root\n',
      'web/src/main/webapp/index.html': '<html/>',
    });
    const r = await preflight(dir.path);
    expect(r.findings).toEqual([expect.objectContaining({ code: 'legacy-staging-host', file: 'gradle/publish.gradle', line: 4, module: ':' })]);
  });

  it('outside a git repository: no repository findings, and the skipped list says what was not checked', async () => {
    await using dir = await fixtureCopy('groovy-multi', { git: false });
    const r = await preflight(dir.path);
    // Only the reminder that the portal's snapshot repository needs SNAPSHOTs enabled (a warning).
    expect(r.findings).toEqual([expect.objectContaining({ code: 'snapshots-need-enabling', severity: 'warning', file: 'build.gradle' })]);
    expect(r.exitCode).toBe(0);
    expect(r.skipped.map((s) => s.check)).toEqual(['dirty-worktree', 'detached-head', 'orphan-tag']);
    expect(r.skipped[0]!.why).toContain('not inside a git repository');
  });
});
