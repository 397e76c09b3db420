import { rm } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { buildFacts, pom } from '../../../test/fixtures/maven/facts-builder.js';
import { afterPlan, scratchContext, scratchParent } from '../../../test/helpers/fix-rules.js';
import type { FixSource } from '../../core/fix/types.js';
import { mavenPackagingMismatch } from '../maven-packaging-mismatch.js';
import { warPackagingFix } from './war-packaging.js';
import type { FixContext } from './types.js';

const options = { fixMetadata: false, usernameVariable: 'U', passwordVariable: 'P' };

function mavenContext(files: Record<string, string>, webapp: string[]): FixContext {
  const repository = { 'org.ex:p:1': pom('  <groupId>org.ex</groupId>\n  <artifactId>p</artifactId>\n  <version>1</version>\n  <packaging>pom</packaging>') };
  const facts = buildFacts({ files, webapp, repository });
  return { facts, findings: mavenPackagingMismatch.run(facts), options, read: (file): FixSource | undefined => (files[file] === undefined ? undefined : { file, text: files[file]! }) };
}

const web = (body: string): string => pom(`\t<parent>\r\n\t\t<groupId>org.ex</groupId>\r\n\t\t<artifactId>p</artifactId>\r\n\t\t<version>1</version>\r\n\t</parent>\r\n${body}`).replace(/\n/g, '\r\n').replace(/\r\r/g, '\r');

describe('warPackagingFix on Maven modules', () => {
  it('inserts <packaging>war</packaging> after the project\'s <artifactId> (not the parent\'s), with its indentation, line ending and trailing comment kept', () => {
    const files = { 'web/pom.xml': web('\t<groupId>org.ex</groupId>\r\n\t<artifactId>web</artifactId> <!-- the portlet -->\r\n\t<version>1</version>') };
    const ctx = mavenContext(files, ['web']);
    expect(ctx.findings).toHaveLength(1);
    const plan = warPackagingFix.plan(ctx);
    expect(plan.edits).toMatchObject([{ file: 'web/pom.xml', line: 11, before: '', after: '<packaging>war</packaging>' }]);
    expect(afterPlan(ctx, plan)['web/pom.xml']).toBe(
      web('\t<groupId>org.ex</groupId>\r\n\t<artifactId>web</artifactId> <!-- the portlet -->\r\n\t<packaging>war</packaging>\r\n\t<version>1</version>'),
    );
  });

  it('replaces a declared jar packaging, and the fixed module is no longer reported', () => {
    const files = { 'pom.xml': pom('  <groupId>org.ex</groupId>\n  <artifactId>web</artifactId>\n  <version>1</version>\n  <packaging> jar </packaging>') };
    const ctx = mavenContext(files, ['']);
    const out = afterPlan(ctx, warPackagingFix.plan(ctx));
    expect(out['pom.xml']).toBe(files['pom.xml'].replace('<packaging> jar </packaging>', '<packaging> war </packaging>'));
    const again = mavenContext(out, ['']);
    expect(again.findings).toEqual([]);
    expect(warPackagingFix.plan(again)).toEqual({ edits: [], declined: [] });
  });

  it('declines a war without web content: which content or packaging is right is a person\'s call', () => {
    const ctx = mavenContext({ 'pom.xml': pom('  <groupId>org.ex</groupId>\n  <artifactId>web</artifactId>\n  <version>1</version>\n  <packaging>war</packaging>') }, []);
    expect(warPackagingFix.plan(ctx)).toMatchObject({ edits: [], declined: [{ code: 'packaging-mismatch', file: 'pom.xml' }] });
  });
});

const parent = await scratchParent();
afterAll(() => rm(parent, { recursive: true, force: true }));

const settings = (kind: 'groovy' | 'kts'): Record<string, string> =>
  kind === 'kts' ? { 'settings.gradle.kts': 'rootProject.name = "demo"\ninclude("web")\n' } : { 'settings.gradle': "rootProject.name = 'demo'\ninclude 'web'\n" };
const publishing = "publishing { repositories { maven { url 'https://ossrh-staging-api.central.sonatype.com/service/local/staging/deploy/maven2/' } } }\n";

describe('warPackagingFix on Gradle projects', () => {
  it('adds id("war") to a Kotlin plugins block, in the entries\' indentation', async () => {
    const script = 'plugins {\r\n    `java-library`\r\n    id("maven-publish")\r\n}\r\n\r\nversion = "1.0.0-SNAPSHOT"\r\n';
    const { ctx } = await scratchContext(parent, { ...settings('kts'), 'web/build.gradle.kts': script, 'web/src/main/webapp/index.html': '<p/>', 'build.gradle.kts': publishing.replace("'", '"').replace("'", '"') });
    expect(ctx.findings.filter((f) => f.code === 'packaging-mismatch')).toHaveLength(1);
    const plan = warPackagingFix.plan(ctx);
    expect(afterPlan(ctx, plan)).toEqual({ 'web/build.gradle.kts': script.replace('}\r\n', '    id("war")\r\n}\r\n') });
  });

  it('adds id \'war\' (the block\'s own quotes) to a Groovy plugins block; the fixed build is no longer reported', async () => {
    const script = "plugins {\n\tid \"java\"\n\tid 'maven-publish' // publishes\n}\n";
    const { dir, ctx } = await scratchContext(parent, { ...settings('groovy'), 'web/build.gradle': script, 'web/src/main/webapp/index.html': '<p/>', 'build.gradle': publishing });
    const out = afterPlan(ctx, warPackagingFix.plan(ctx));
    expect(out['web/build.gradle']).toBe("plugins {\n\tid \"java\"\n\tid 'maven-publish' // publishes\n\tid \"war\"\n}\n");
    const { ctx: again } = await scratchContext(parent, { ...settings('groovy'), 'web/build.gradle': out['web/build.gradle']!, 'web/src/main/webapp/index.html': '<p/>', 'build.gradle': publishing });
    expect(again.findings.filter((f) => f.code === 'packaging-mismatch')).toEqual([]);
    expect(warPackagingFix.plan(again).edits).toEqual([]);
    expect(dir).toBeTruthy();
  });

  it('adds apply plugin: \'war\' after a top-level apply plugin line', async () => {
    const script = "apply plugin: 'java'\napply plugin: 'maven-publish'\n\ndependencies {\n    apply plugin: 'x'\n}\n";
    const { ctx } = await scratchContext(parent, { ...settings('groovy'), 'web/build.gradle': script, 'web/src/main/webapp/index.html': '<p/>', 'build.gradle': publishing });
    expect(afterPlan(ctx, warPackagingFix.plan(ctx))['web/build.gradle']).toBe("apply plugin: 'java'\napply plugin: 'war'\napply plugin: 'maven-publish'\n\ndependencies {\n    apply plugin: 'x'\n}\n");
  });

  it('declines a one-line plugins block with the exact line to add', async () => {
    const { ctx } = await scratchContext(parent, { ...settings('kts'), 'web/build.gradle.kts': 'plugins { java; `maven-publish` }\n', 'web/src/main/webapp/index.html': '<p/>', 'build.gradle.kts': publishing.replace(/'/g, '"') });
    const plan = warPackagingFix.plan(ctx);
    expect(plan.edits).toEqual([]);
    expect(plan.declined).toEqual([expect.objectContaining({ code: 'packaging-mismatch', file: 'web/build.gradle.kts', why: expect.stringContaining('add plugins { id("war") } to web/build.gradle.kts') })]);
  });
});
