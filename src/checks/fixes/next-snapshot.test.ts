import { rm } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { buildFacts, pom } from '../../../test/fixtures/maven/facts-builder.js';
import { scratchContext, scratchParent } from '../../../test/helpers/fix-rules.js';
import { applyEdits } from '../../core/fix/apply.js';
import type { FixSource } from '../../core/fix/types.js';
import type { ProjectFacts } from '../facts.js';
import { repoNotSnapshot, repoOrphanTag } from '../repo-version.js';
import { nextSnapshotFix } from './next-snapshot.js';
import type { FixContext } from './types.js';

const parent = await scratchParent();
afterAll(() => rm(parent, { recursive: true, force: true }));

const options = { fixMetadata: false, usernameVariable: 'U', passwordVariable: 'P' };

/** A reactor as the gatherer would see it, with its release facts and git tags. */
function context(files: Record<string, string>, version: string, tags: string[], extra: Record<string, string> = {}): FixContext {
  const facts: ProjectFacts = buildFacts({ files });
  facts.release = { currentVersion: version, versionFile: 'pom.xml', versionLine: 1, artifactId: 'demo', groupId: 'org.ex' };
  facts.git = { isRepository: true, tags } as unknown as ProjectFacts['git'];
  const all: Record<string, string> = { ...files, ...extra };
  const findings = [...repoNotSnapshot.run(facts), ...repoOrphanTag.run(facts)];
  return { facts, findings, options, read: (file): FixSource | undefined => (all[file] === undefined ? undefined : { file, text: all[file]! }) };
}

function fixed(ctx: FixContext): Record<string, string> {
  const plan = nextSnapshotFix.plan(ctx);
  const out: Record<string, string> = {};
  for (const file of new Set(plan.edits.map((e) => e.file))) out[file] = applyEdits(ctx.read(file)!.text, plan.edits.filter((e) => e.file === file));
  return out;
}

const root = (version: string, more = ''): string =>
  pom(`  <groupId>org.ex</groupId>\n  <artifactId>demo</artifactId>\n  <version>${version}</version>\n  <packaging>pom</packaging>\n${more}  <modules><module>core</module></modules>`);
const child = (parentVersion: string, own = ''): string =>
  pom(`  <parent>\n    <groupId>org.ex</groupId>\n    <artifactId>demo</artifactId>\n    <version>${parentVersion}</version>\n  </parent>\n  <artifactId>core</artifactId>\n${own}`);

describe('nextSnapshotFix on a Maven reactor (as versions:set)', () => {
  it('not-snapshot after a release: the root version and each module\'s parent version move to the next snapshot', () => {
    const ctx = context({ 'pom.xml': root('1.4.2'), 'core/pom.xml': child('1.4.2') }, '1.4.2', ['demo-1.4.2']);
    expect(ctx.findings.map((f) => f.code)).toEqual(['not-snapshot']);
    const out = fixed(ctx);
    expect(out['pom.xml']).toBe(root('1.4.3-SNAPSHOT'));
    expect(out['core/pom.xml']).toBe(child('1.4.3-SNAPSHOT'));
    expect(nextSnapshotFix.plan(ctx).edits.map((e) => [e.file, e.line, e.before, e.after])).toEqual([
      ['pom.xml', 6, '1.4.2', '1.4.3-SNAPSHOT'],
      ['core/pom.xml', 7, '1.4.2', '1.4.3-SNAPSHOT'],
    ]);
  });

  it('changes a module\'s own version when it repeats the reactor\'s, and leaves an independently versioned one', () => {
    const ctx = context({ 'pom.xml': root('2.0.0.Final'), 'core/pom.xml': child('2.0.0.Final', '  <version>2.0.0.Final</version>') }, '2.0.0.Final', ['2.0.0.Final']);
    expect(fixed(ctx)['core/pom.xml']).toBe(child('2.0.1.Final-SNAPSHOT', '  <version>2.0.1.Final-SNAPSHOT</version>'));
    const other = context({ 'pom.xml': root('1.0'), 'core/pom.xml': child('1.0', '  <version>7.1</version>') }, '1.0', ['v1.0']);
    expect(fixed(other)['core/pom.xml']).toBe(child('1.1-SNAPSHOT', '  <version>7.1</version>'));
  });

  it('declines not-snapshot without a release tag: whether X.Y.Z was released is a person\'s call', () => {
    const plan = nextSnapshotFix.plan(context({ 'pom.xml': root('1.4.2'), 'core/pom.xml': child('1.4.2') }, '1.4.2', []));
    expect(plan.edits).toEqual([]);
    expect(plan.declined).toEqual([expect.objectContaining({ code: 'not-snapshot', file: 'pom.xml' })]);
    expect(plan.declined[0]!.why).toContain('set 1.4.2-SNAPSHOT if it was not, 1.4.3-SNAPSHOT if it was');
  });

  it('orphan-tag: moves past every orphan (2.4.0 and 2.4.1 tagged, never published → 2.4.2-SNAPSHOT)', () => {
    const ctx = context({ 'pom.xml': root('2.4.0-SNAPSHOT'), 'core/pom.xml': child('2.4.0-SNAPSHOT') }, '2.4.0-SNAPSHOT', ['v2.4.0', 'v2.4.1']);
    expect(ctx.findings.map((f) => f.code)).toEqual(['orphan-tag', 'orphan-tag']);
    expect(fixed(ctx)).toEqual({ 'pom.xml': root('2.4.2-SNAPSHOT'), 'core/pom.xml': child('2.4.2-SNAPSHOT') });
  });

  it('keeps a CI-friendly ${revision} version and changes revision in .mvn/maven.config, which wins over the POM', () => {
    const files = { 'pom.xml': root('${revision}${changelist}', '  <properties>\n    <revision>9.9.9</revision>\n    <changelist>-SNAPSHOT</changelist>\n  </properties>\n'), 'core/pom.xml': child('${revision}${changelist}') };
    const config = '-Drevision=2.4.0 -Dchangelist=-SNAPSHOT\r\n--no-transfer-progress\r\n';
    const ctx = context(files, '2.4.0-SNAPSHOT', ['v2.4.0'], { '.mvn/maven.config': config });
    expect(fixed(ctx)).toEqual({ '.mvn/maven.config': '-Drevision=2.4.1 -Dchangelist=-SNAPSHOT\r\n--no-transfer-progress\r\n' });
  });

  it('changes <revision> in the top-level POM\'s properties when maven.config does not set it', () => {
    const files = { 'pom.xml': root('${revision}', '  <properties>\n    <revision>2.4.0-SNAPSHOT</revision>\n  </properties>\n'), 'core/pom.xml': child('${revision}') };
    const out = fixed(context(files, '2.4.0-SNAPSHOT', ['demo-2.4.0']));
    expect(out).toEqual({ 'pom.xml': files['pom.xml'].replace('<revision>2.4.0-SNAPSHOT<', '<revision>2.4.1-SNAPSHOT<') });
  });

  it('declines a version built from other properties', () => {
    const files = { 'pom.xml': root('${base.version}-SNAPSHOT', '  <properties><base.version>3.0.0</base.version></properties>\n'), 'core/pom.xml': child('${base.version}-SNAPSHOT') };
    const plan = nextSnapshotFix.plan(context(files, '3.0.0-SNAPSHOT', ['v3.0.0']));
    expect(plan.edits).toEqual([]);
    expect(plan.declined[0]!.why).toMatch(/not a CI-friendly/);
  });

  it('is idempotent: planning again on the fixed reactor finds nothing to do', () => {
    const ctx = context({ 'pom.xml': root('1.4.2'), 'core/pom.xml': child('1.4.2') }, '1.4.2', ['demo-1.4.2']);
    const out = fixed(ctx);
    const again = context(out, '1.4.3-SNAPSHOT', ['demo-1.4.2']);
    expect(again.findings).toEqual([]);
    expect(nextSnapshotFix.plan(again)).toEqual({ edits: [], declined: [] });
  });
});

describe('nextSnapshotFix on Gradle builds (where the version is written)', () => {
  const tagged = async (files: Record<string, string>, tags: string[]): Promise<FixContext> => {
    const { ctx } = await scratchContext(parent, files);
    // The scratch folder is no git repository: give it the release tags a clone would have.
    ctx.facts.git = { ...ctx.facts.git, isRepository: true, tags } as ProjectFacts['git'];
    return { ...ctx, findings: [...repoNotSnapshot.run(ctx.facts), ...repoOrphanTag.run(ctx.facts)] };
  };
  const publishing = 'plugins { `maven-publish` }\npublishing { repositories { maven { url = uri("https://ossrh-staging-api.central.sonatype.com/service/local/staging/deploy/maven2/") } } }\n';

  it('changes the version literal of the root build script, not the same text in a comment', async () => {
    const script = `${publishing}version = "1.2.3" // 1.2.3 is out\n`;
    const ctx = await tagged({ 'settings.gradle.kts': 'rootProject.name = "demo"\n', 'build.gradle.kts': script }, ['v1.2.3']);
    expect(ctx.findings.map((f) => [f.code, f.file, f.line])).toEqual([['not-snapshot', 'build.gradle.kts', 3]]);
    expect(fixed(ctx)).toEqual({ 'build.gradle.kts': script.replace('"1.2.3"', '"1.2.4-SNAPSHOT"') });
  });

  it('changes version= in gradle.properties, keeping its spacing and the other keys', async () => {
    const props = 'group = org.example\r\nversion = 3.1.0-SNAPSHOT\r\norg.gradle.jvmargs=-Xmx1g\r\n';
    const ctx = await tagged({ 'settings.gradle.kts': 'rootProject.name = "demo"\n', 'build.gradle.kts': publishing, 'gradle.properties': props }, ['v3.1.0']);
    expect(ctx.findings.map((f) => f.code)).toEqual(['orphan-tag']);
    expect(fixed(ctx)).toEqual({ 'gradle.properties': props.replace('3.1.0-SNAPSHOT', '3.1.1-SNAPSHOT') });
  });

  it('declines a version written with an escape (not the literal as read)', async () => {
    const script = `${publishing}version = "1.2\\u002E3"\n`;
    const ctx = await tagged({ 'settings.gradle.kts': 'rootProject.name = "demo"\n', 'build.gradle.kts': script }, ['v1.2.3']);
    const plan = nextSnapshotFix.plan(ctx);
    expect(plan.edits).toEqual([]);
    expect(plan.declined).toEqual([expect.objectContaining({ code: 'not-snapshot', file: 'build.gradle.kts', why: 'the version at build.gradle.kts:3 is not a literal 1.2.3: set 1.2.4-SNAPSHOT there by hand' })]);
  });
});
