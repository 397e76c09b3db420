import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { afterPlan, fixContextFor, scratchContext, scratchParent } from '../../../test/helpers/fix-rules.js';
import { gradleStagingUrlFix } from './gradle-staging-url.js';

const parent = await scratchParent();
afterAll(() => rm(parent, { recursive: true, force: true }));

const staging = 'https://ossrh-staging-api.central.sonatype.com';
const codes = ['legacy-staging-host', 'distribution-url'];

/** Plans on a scratch build, then gathers again on the fixed files: what the rule left. */
async function fixAndRecheck(files: Record<string, string>): Promise<{ out: Record<string, string>; before: string[]; after: string[]; again: number; declined: string[] }> {
  const { ctx } = await scratchContext(parent, files);
  const plan = gradleStagingUrlFix.plan(ctx);
  const out = afterPlan(ctx, plan);
  const { ctx: next } = await scratchContext(parent, { ...files, ...out });
  const pick = (fs: typeof ctx.findings): string[] => fs.filter((f) => codes.includes(f.code)).map((f) => `${f.code} ${f.file}:${f.line}`);
  return { out, before: pick(ctx.findings), after: pick(next.findings), again: gradleStagingUrlFix.plan(next).edits.length, declined: plan.declined.map((d) => d.why) };
}

describe('gradleStagingUrlFix: URL literals where they are written', () => {
  it('gradle-nexus nexusUrl / snapshotRepositoryUrl (Kotlin, a commented-out URL on the way) move to the staging API and Central snapshots', async () => {
    const script = [
      'plugins {',
      '    id("io.github.gradle-nexus.publish-plugin") version "2.0.0"',
      '}',
      'nexusPublishing {',
      '    repositories {',
      '        sonatype {',
      '            // nexusUrl.set(uri("https://s01.oss.sonatype.org/service/local/staging/deploy/maven2/"))',
      '            nexusUrl.set(uri("https://s01.oss.sonatype.org/service/local/"))',
      '            snapshotRepositoryUrl.set(uri("https://s01.oss.sonatype.org/content/repositories/snapshots/"))',
      '        }',
      '    }',
      '}',
      '',
    ].join('\r\n');
    const r = await fixAndRecheck({ 'settings.gradle.kts': 'rootProject.name = "demo"\n', 'build.gradle.kts': script, 'gradle.properties': 'version=1.0.0-SNAPSHOT\n' });
    expect(r.before).toEqual(['legacy-staging-host build.gradle.kts:8', 'legacy-staging-host build.gradle.kts:9']);
    expect(r.out['build.gradle.kts']).toBe(
      script
        .replace('nexusUrl.set(uri("https://s01.oss.sonatype.org/service/local/"))', `nexusUrl.set(uri("${staging}/service/local/"))`)
        .replace('snapshotRepositoryUrl.set(uri("https://s01.oss.sonatype.org/content/repositories/snapshots/"))', 'snapshotRepositoryUrl.set(uri("https://central.sonatype.com/repository/maven-snapshots/"))'),
    );
    expect(r.after).toEqual([]);
    expect(r.again).toBe(0);
  });

  it('gradle-nexus with only nexusUrl written: the snapshot URL (the plugin default is the retired oss.sonatype.org) is added beside it, in the same style', async () => {
    const kotlin = 'plugins {\n    id("io.github.gradle-nexus.publish-plugin") version "2.0.0"\n}\nnexusPublishing {\n    repositories {\n        sonatype {\n            nexusUrl.set(uri("https://s01.oss.sonatype.org/service/local/")) // s01\n            username.set(System.getenv("OSSRH_USER"))\n        }\n    }\n}\n';
    const k = await fixAndRecheck({ 'settings.gradle.kts': 'rootProject.name = "demo"\n', 'build.gradle.kts': kotlin, 'gradle.properties': 'version=1.0.0-SNAPSHOT\n' });
    expect(k.out['build.gradle.kts']).toBe(
      kotlin.replace(
        'nexusUrl.set(uri("https://s01.oss.sonatype.org/service/local/")) // s01\n',
        `nexusUrl.set(uri("${staging}/service/local/")) // s01\n            snapshotRepositoryUrl.set(uri("https://central.sonatype.com/repository/maven-snapshots/"))\n`,
      ),
    );
    expect(k.after).toEqual([]);
    expect(k.again).toBe(0);
    const groovy = "nexusPublishing {\r\n\trepositories {\r\n\t\tsonatype {\r\n\t\t\tnexusUrl = uri('https://s01.oss.sonatype.org/service/local/')\r\n\t\t}\r\n\t}\r\n}\r\n";
    const g = await fixAndRecheck({ 'settings.gradle': "rootProject.name = 'demo'\n", 'build.gradle': `plugins { id 'io.github.gradle-nexus.publish-plugin' version '1.3.0' }\r\n${groovy}`, 'gradle.properties': 'version=1.0.0-SNAPSHOT\n' });
    expect(g.out['build.gradle']).toContain(`\t\t\tnexusUrl = uri('${staging}/service/local/')\r\n\t\t\tsnapshotRepositoryUrl = uri('https://central.sonatype.com/repository/maven-snapshots/')\r\n\t\t}`);
    expect(g.again).toBe(0);
  });

  it('a Groovy maven { url "..." } release repository gets the staging deploy URL; tabs and the rest of the file stay', async () => {
    const script = "plugins {\n\tid 'java'\n\tid 'maven-publish'\n}\npublishing {\n\trepositories {\n\t\tmaven {\n\t\t\tname 'ossrh' // the old one\n\t\t\turl 'https://oss.sonatype.org/service/local/staging/deploy/maven2/'\n\t\t}\n\t}\n}\n";
    const r = await fixAndRecheck({ 'settings.gradle': "rootProject.name = 'demo'\n", 'build.gradle': script, 'gradle.properties': 'version=1.0.0-SNAPSHOT\n' });
    expect(r.before).toEqual(['legacy-staging-host build.gradle:9']);
    expect(r.out['build.gradle']).toBe(script.replace('https://oss.sonatype.org/service/local/staging/deploy/maven2/', `${staging}/service/local/staging/deploy/maven2/`));
    expect(r.after).toEqual([]);
  });

  it('distribution-url: a release repository on another Central URL moves to the staging deploy URL', async () => {
    const script = 'plugins { `maven-publish` }\npublishing {\n  repositories {\n    maven {\n      url = uri("https://central.sonatype.com/api/v1/publisher")\n    }\n  }\n}\n';
    const r = await fixAndRecheck({ 'settings.gradle.kts': 'rootProject.name = "demo"\n', 'build.gradle.kts': script, 'gradle.properties': 'version=1.0.0-SNAPSHOT\n' });
    expect(r.before).toEqual(['distribution-url build.gradle.kts:5']);
    expect(r.out['build.gradle.kts']).toContain(`url = uri("${staging}/service/local/staging/deploy/maven2/")`);
    expect(r.after).toEqual([]);
  });

  it('leaves a URL from a variable or an interpolated string alone, and says why', async () => {
    const script = [
      "plugins { id 'maven-publish' }",
      "def releasesRepoUrl = 'https://s01.oss.sonatype.org/service/local/staging/deploy/maven2/'",
      'def path = "content/repositories/snapshots/"',
      'publishing {',
      '  repositories {',
      '    maven { url = releasesRepoUrl }',
      '    maven { url = "https://s01.oss.sonatype.org/${path}" }',
      '  }',
      '}',
      '',
    ].join('\n');
    const r = await fixAndRecheck({ 'settings.gradle': "rootProject.name = 'demo'\n", 'build.gradle': script, 'gradle.properties': 'version=1.0.0-SNAPSHOT\n' });
    expect(r.out).toEqual({});
    expect(r.before).toHaveLength(2);
    expect(r.after).toEqual(r.before);
    expect(r.declined).toEqual([expect.stringMatching(/^the URL comes from releasesRepoUrl/), expect.stringMatching(/interpolated string/)]);
  });

  it('declines the gradle-nexus default host (nothing written to change)', async () => {
    const script = 'plugins { id("io.github.gradle-nexus.publish-plugin") version "1.3.0" }\nnexusPublishing {\n    repositories {\n        sonatype()\n    }\n}\n';
    const r = await fixAndRecheck({ 'settings.gradle.kts': 'rootProject.name = "demo"\n', 'build.gradle.kts': script, 'gradle.properties': 'version=1.0.0-SNAPSHOT\n' });
    expect(r.out).toEqual({});
    expect(r.declined).toEqual([expect.stringContaining("no URL is written (the plugin's default host): Set nexusUrl to")]);
  });
});

describe('gradleStagingUrlFix: the vanniktech host', () => {
  const settings = { 'settings.gradle.kts': 'rootProject.name = "demo"\n' };
  const plugin = (version: string): string => `plugins {\n    id("com.vanniktech.maven.publish") version "${version}"\n}\nmavenPublishing {\n    signAllPublications()\n}\n`;

  it('SONATYPE_HOST=S01 in gradle.properties becomes CENTRAL_PORTAL (0.28.0 or later); the route is then the Central Portal', async () => {
    const props = 'GROUP=io.github.example\r\nVERSION_NAME=1.0.0-SNAPSHOT\r\nSONATYPE_HOST=S01\r\nRELEASE_SIGNING_ENABLED=true\r\n';
    const r = await fixAndRecheck({ ...settings, 'build.gradle.kts': plugin('0.30.0'), 'gradle.properties': props });
    expect(r.before).toEqual(['legacy-staging-host gradle.properties:3']);
    expect(r.out).toEqual({ 'gradle.properties': props.replace('SONATYPE_HOST=S01', 'SONATYPE_HOST=CENTRAL_PORTAL') });
    expect(r.after).toEqual([]);
  });

  it('publishToMavenCentral(SonatypeHost.S01, ...) becomes SonatypeHost.CENTRAL_PORTAL', async () => {
    const script = 'import com.vanniktech.maven.publish.SonatypeHost\nplugins {\n    id("com.vanniktech.maven.publish") version "0.29.0"\n}\nmavenPublishing {\n    publishToMavenCentral(SonatypeHost.S01, automaticRelease = true)\n}\n';
    const r = await fixAndRecheck({ ...settings, 'build.gradle.kts': script, 'gradle.properties': 'VERSION_NAME=1.0.0-SNAPSHOT\n' });
    expect(r.before).toEqual(['legacy-staging-host build.gradle.kts:6']);
    expect(r.out['build.gradle.kts']).toBe(script.replace('SonatypeHost.S01', 'SonatypeHost.CENTRAL_PORTAL'));
    expect(r.after).toEqual([]);
  });

  it('declines before 0.28.0, where CENTRAL_PORTAL does not exist: the upgrade and the property to set, never only "drop it"', async () => {
    const r = await fixAndRecheck({ ...settings, 'build.gradle.kts': plugin('0.25.3'), 'gradle.properties': 'VERSION_NAME=1.0.0-SNAPSHOT\nSONATYPE_HOST=DEFAULT\n' });
    expect(r.out).toEqual({});
    expect(r.declined).toEqual([
      'com.vanniktech.maven.publish 0.25.3 has no Central Portal target (CENTRAL_PORTAL came in 0.28.0), so dropping the host would leave it none: upgrade com.vanniktech.maven.publish (applied at build.gradle.kts:2) to 0.34.0 and replace SONATYPE_HOST=DEFAULT with mavenCentralPublishing=true in gradle.properties',
    ]);
    expect(r.declined[0]).not.toMatch(/\bdrop SONATYPE_HOST/);
  });

  it('the finding gives the same version-aware advice: SonatypeHost.S01 in the script on 0.27.0', async () => {
    const script = 'import com.vanniktech.maven.publish.SonatypeHost\nplugins {\n    id("com.vanniktech.maven.publish") version "0.27.0"\n}\nmavenPublishing {\n    publishToMavenCentral(SonatypeHost.S01)\n}\n';
    const { ctx } = await scratchContext(parent, { ...settings, 'build.gradle.kts': script, 'gradle.properties': 'VERSION_NAME=1.0.0-SNAPSHOT\n' });
    const finding = ctx.findings.find((f) => f.code === 'legacy-staging-host')!;
    expect(finding.fix).toBe(
      'com.vanniktech.maven.publish 0.27.0 has no Central Portal target (CENTRAL_PORTAL came in 0.28.0), so dropping the host would leave it none: upgrade com.vanniktech.maven.publish (applied at build.gradle.kts:3) to 0.34.0 and replace SonatypeHost.S01 with publishToMavenCentral() without a host (SonatypeHost is gone in 0.34.0).',
    );
    expect(gradleStagingUrlFix.plan(ctx).declined.map((d) => d.why)).toEqual([expect.stringContaining('upgrade com.vanniktech.maven.publish (applied at build.gradle.kts:3) to 0.34.0')]);
  });

  it('0.30.0 with no host written (publishToMavenCentral() means oss.sonatype.org there): SONATYPE_HOST=CENTRAL_PORTAL, not mavenCentralPublishing', async () => {
    const script = 'plugins {\n    id("com.vanniktech.maven.publish") version "0.30.0"\n}\nmavenPublishing {\n    publishToMavenCentral()\n}\n';
    const { ctx } = await scratchContext(parent, { ...settings, 'build.gradle.kts': script, 'gradle.properties': 'VERSION_NAME=1.0.0-SNAPSHOT\n' });
    const finding = ctx.findings.find((f) => f.code === 'legacy-staging-host');
    expect(finding?.fix).toContain('set SONATYPE_HOST=CENTRAL_PORTAL in gradle.properties (mavenCentralPublishing=true needs 0.33.0 or later)');
  });
});

describe('gradleStagingUrlFix with a Central Portal uploader (nmcp, JReleaser)', () => {
  it('nmcp applied: a release repository on s01 is a leftover upload path, declined with "remove it" (not re-pointed); a snapshot one still moves', async () => {
    const script = [
      'plugins {',
      '    `maven-publish`',
      '    id("com.gradleup.nmcp") version "0.0.8"',
      '}',
      'publishing {',
      '    repositories {',
      '        maven {',
      '            url = uri("https://s01.oss.sonatype.org/service/local/staging/deploy/maven2/")',
      '        }',
      '        maven {',
      '            url = uri("https://s01.oss.sonatype.org/content/repositories/snapshots/")',
      '        }',
      '    }',
      '}',
      '',
    ].join('\n');
    const r = await fixAndRecheck({ 'settings.gradle.kts': 'rootProject.name = "demo"\n', 'build.gradle.kts': script, 'gradle.properties': 'version=1.0.0-SNAPSHOT\n' });
    expect(r.out['build.gradle.kts']).toBe(script.replace('https://s01.oss.sonatype.org/content/repositories/snapshots/', 'https://central.sonatype.com/repository/maven-snapshots/'));
    expect(r.declined).toEqual([
      `the build uploads to the Central Portal with com.gradleup.nmcp (build.gradle.kts:3), so this repository on a retired host is a leftover second upload path: remove its maven { } block at build.gradle.kts:8 (relctl does not delete a block); only if the release does upload through it, set its url to ${staging}/service/local/staging/deploy/maven2/`,
    ]);
  });
});

describe('gradleStagingUrlFix outside the project', () => {
  it('never edits the user\'s gradle.properties: SONATYPE_HOST=S01 set there is declined', async () => {
    const userHome = await mkdtemp(path.join(parent, 'home-'));
    await mkdir(path.join(userHome, '.gradle'));
    await writeFile(path.join(userHome, '.gradle', 'gradle.properties'), 'SONATYPE_HOST=S01\n');
    const { dir } = await scratchContext(parent, {
      'settings.gradle.kts': 'rootProject.name = "demo"\n',
      'build.gradle.kts': 'plugins {\n    id("com.vanniktech.maven.publish") version "0.30.0"\n}\n',
      'gradle.properties': 'VERSION_NAME=1.0.0-SNAPSHOT\n',
    });
    const ctx = await fixContextFor(dir, { HOME: userHome });
    const finding = ctx.findings.find((f) => f.code === 'legacy-staging-host')!;
    const plan = gradleStagingUrlFix.plan(ctx);
    expect(plan.edits).toEqual([]);
    expect(plan.declined).toEqual([expect.objectContaining({ code: 'legacy-staging-host', file: finding.file })]);
    expect(plan.declined[0]!.why).toContain('outside the project');
  });
});
