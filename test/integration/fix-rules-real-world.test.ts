/**
 * The --fix rules of issue 22 (next snapshot, war packaging, Gradle staging URLs and hosts, POM
 * metadata from the git remote) on the real-world corpus: each fixture cloned as a user's
 * repository, the rules planned on preflight's own facts, the edits written and committed, then `relctl preflight --offline --json` (the built
 * bundle) run again. A fixed code is gone, nothing new appears, only the named lines changed, and
 * planning again changes nothing. Where a URL comes from a variable or a plugin default, no edit
 * is planned for it and every such finding is declined with why.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { gradleStagingUrlFix } from '../../src/checks/fixes/gradle-staging-url.js';
import { nextSnapshotFix } from '../../src/checks/fixes/next-snapshot.js';
import { pomMetadataFix } from '../../src/checks/fixes/pom-metadata.js';
import { warPackagingFix } from '../../src/checks/fixes/war-packaging.js';
import type { FixRule } from '../../src/checks/fixes/types.js';

/**
 * The rules of the project's own files (versions, packaging, Gradle URLs, metadata); the
 * distribution and settings rules, which also edit the user's settings file, are tested through
 * the command in preflight-fix-real-world.test.ts.
 */
const fixRules: readonly FixRule[] = [gradleStagingUrlFix, warPackagingFix, nextSnapshotFix, pomMetadataFix];
import type { FixPlan } from '../../src/core/fix/types.js';
import { fixContextFor, planAll, writePlan } from '../helpers/fix-rules.js';
import { cloneFixture, corpus, gitIsolation, preflightJson, realWorldWorkspace } from '../helpers/real-world.js';
import { runMaven, writeMavenSettings } from '../helpers/maven.js';
import { git } from '../helpers/temp.js';

const home = path.join(corpus, 'home');
const work = await realWorldWorkspace();
afterAll(() => work.dispose());

interface FixCase {
  fixture: string;
  tags?: string[];
  /** Codes every finding of which is fixed. */
  fixed: string[];
  /** Maven reads the fixture offline (`mvn -o -q validate`), so it must still read the fixed POMs. */
  mavenValidates?: true;
  /** A development commit follows the tags (a tag at HEAD alone is a release under way, not bumped). */
  developedAfterTag?: true;
}

/** `mvn -o -q validate` in `dir` with settings that resolve from the Debian repository only. */
async function mavenValidate(dir: string): Promise<void> {
  const settings = await writeMavenSettings(path.join(work.dir, 'maven-settings.xml'));
  const r = await runMaven(['-o', '-q', 'validate'], { cwd: dir, settings, timeoutMs: 60_000 });
  expect(r.exitCode, r.output).toBe(0);
}

const fixedCases: FixCase[] = [
  { fixture: 'gradle-portlet-uploadarchives', fixed: ['legacy-staging-host'] },
  { fixture: 'gradle-nexus-s01-version-file', tags: ['v0.7.0'], fixed: ['legacy-staging-host', 'orphan-tag'] },
  { fixture: 'gradle-named-build-files', tags: ['4.3.12.Final'], fixed: ['legacy-staging-host', 'orphan-tag'] },
  { fixture: 'gradle-marcphilipp-nexus-staging', fixed: ['legacy-staging-host'] },
  { fixture: 'gradle-axion-scm-version', fixed: ['legacy-staging-host'] },
  { fixture: 'gradle-version-property-name', tags: ['v2.1.0'], fixed: ['orphan-tag'] },
  { fixture: 'kts-nexus-s01', fixed: ['legacy-staging-host'] },
  { fixture: 'kts-jreleaser-nexus2-s01', fixed: ['legacy-staging-host'] },
  { fixture: 'kts-release-plugin-tag', tags: ['config-loader-release-2.3.0', 'config-loader-release-2.4.0'], fixed: ['orphan-tag'] },
  { fixture: 'kts-version-from-property', tags: ['v2.0.0'], fixed: ['not-snapshot'], developedAfterTag: true },
  { fixture: 'kts-delegated-version', tags: ['v4.0.0'], fixed: ['not-snapshot'], developedAfterTag: true },
  { fixture: 'v-tagged', tags: ['v2.9.0', 'v3.0.0'], fixed: ['orphan-tag'], mavenValidates: true },
  { fixture: 'release-tag-format', tags: ['release-2.0.0'], fixed: ['orphan-tag'], mavenValidates: true },
  { fixture: 'mvn-junit4-bundle', tags: ['r4.12', 'r4.13'], fixed: ['orphan-tag'] },
  { fixture: 'maven-ci-friendly', tags: ['v2.4.0'], fixed: ['orphan-tag'] },
  { fixture: 'mvn-default-profile', fixed: ['packaging-mismatch'], mavenValidates: true },
];

/** Lines of `before` that a line diff (LCS) does not keep in `after`, 1-based. */
function changedLines(before: string, after: string): number[] {
  const a = before.split(/(?<=\n)/);
  const b = after.split(/(?<=\n)/);
  const lcs: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) for (let j = b.length - 1; j >= 0; j--) lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const changed: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length) {
    if (j < b.length && a[i] === b[j]) [i, j] = [i + 1, j + 1];
    else if (j < b.length && lcs[i]![j + 1]! >= lcs[i + 1]![j]!) j++;
    else changed.push(++i);
  }
  return changed;
}

async function texts(dir: string, files: readonly string[]): Promise<Map<string, string>> {
  return new Map(await Promise.all(files.map(async (f) => [f, await readFile(path.join(dir, f), 'utf8')] as const)));
}

describe('issue 22 fix rules on the real-world corpus', () => {
  it.each(fixedCases.map((c) => [c.fixture, c] as const))('%s: fixed codes gone, nothing new, only named lines changed, idempotent', async (_n, c) => {
    const dir = await cloneFixture(work.dir, c.fixture, `${c.fixture}-fix`, c.tags);
    if (c.developedAfterTag === true) await git(dir, work.dir, 'commit', '-q', '--allow-empty', '-m', 'development after the release');
    const env = gitIsolation(work.dir);
    const before = await preflightJson(dir, home, env);
    const ctx = await fixContextFor(dir, { ...env, HOME: home });
    // In-process preflight and the CLI agree on the findings the rules see.
    expect([...new Set(ctx.findings.map((f) => f.code))].sort()).toEqual(before.codes);
    for (const code of c.fixed) expect(before.codes).toContain(code);
    const plan: FixPlan = planAll(fixRules, ctx);
    for (const code of c.fixed) expect(plan.declined.filter((d) => d.code === code), JSON.stringify(plan.declined)).toEqual([]);
    expect(plan.edits.length).toBeGreaterThan(0);

    const files = [...new Set(plan.edits.map((e) => e.file))];
    const original = await texts(dir, files);
    await writePlan(dir, plan);
    const edited = await texts(dir, files);
    for (const file of files) {
      // Only the lines an edit names change (an insertion changes none of the old lines).
      const named = plan.edits.filter((e) => e.file === file && e.start !== e.end).map((e) => e.line);
      expect(changedLines(original.get(file)!, edited.get(file)!), file).toEqual([...new Set(named)].sort((x, y) => x - y));
    }
    // A Gradle URL or version edit is at the very line the finding names.
    for (const e of plan.edits.filter((x) => x.code !== 'packaging-mismatch' && x.code !== 'orphan-tag' && x.code !== 'not-snapshot')) {
      expect(ctx.findings.some((f) => f.code === e.code && f.file === e.file && f.line === e.line), `${e.file}:${e.line}`).toBe(true);
    }

    await git(dir, work.dir, 'commit', '-q', '-am', 'relctl preflight --fix');
    const after = await preflightJson(dir, home, env);
    for (const code of c.fixed) expect(after.codes, after.r.stdout).not.toContain(code);
    // The one code a fix brings by design: a snapshot repository moved to the portal's is reminded that
    // the namespace's SNAPSHOTs must be enabled there (issue 42 item 5), at a line the fix wrote.
    const reminder = 'snapshots-need-enabling';
    for (const f of after.doc.findings.filter((x) => x.code === reminder && !before.codes.includes(reminder))) {
      expect(edited.get(f.file!) ?? '', `${f.file}:${f.line}`).toContain('/repository/maven-snapshots/');
    }
    expect(after.codes.filter((code) => !before.codes.includes(code) && code !== reminder), after.r.stdout).toEqual([]);
    const untouched = (doc: typeof before.doc): string[] => doc.findings.filter((f) => !c.fixed.includes(f.code) && f.code !== reminder).map((f) => `${f.code} ${f.file}`);
    expect(untouched(after.doc)).toEqual(untouched(before.doc));

    const again = planAll(fixRules, await fixContextFor(dir, { ...env, HOME: home }));
    expect(again.edits).toEqual([]);
    if (c.mavenValidates === true) await mavenValidate(dir);
  });

  const declinedCases: [string, string][] = [
    ['gradle-uportal-ext-ternary', 'the URL comes from publishingRepositoryUrl'],
    ['gradle-mvn-push-default', 'the URL comes from getReleaseRepositoryUrl'],
    ['gradle-cas-gstring-property', 'the URL comes from sonatypeRepositoryUrl'],
    ['kts-mockk-provider-url', 'the URL comes from sonatypeRepositoryReleaseUrl'],
    ['kts-s01-template-url', 'interpolated string'],
    ['gradle-nexus-staging-half-migrated', "the plugin's default host"],
    ['kts-codearte-half-migrated', "the plugin's default host"],
    ['kts-detekt-nexus-create', "the plugin's default host"],
    ['kts-moshi-apply-false-s01', '0.25.3 has no Central Portal target (CENTRAL_PORTAL came in 0.28.0), so dropping the host would leave it none: upgrade com.vanniktech.maven.publish'],
    ['gradle-vanniktech-base-s01', '0.25.3 has no Central Portal target (CENTRAL_PORTAL came in 0.28.0), so dropping the host would leave it none: upgrade com.vanniktech.maven.publish'],
    ['gradle-vanniktech-old', 'no host setting is written on this line'],
  ];

  it.each(declinedCases)('%s: a URL or host not written as a literal is left alone, each finding declined with why', async (fixture, why) => {
    const dir = await cloneFixture(work.dir, fixture, `${fixture}-declined`);
    const ctx = await fixContextFor(dir, { ...gitIsolation(work.dir), HOME: home });
    const findings = ctx.findings.filter((f) => f.code === 'legacy-staging-host');
    expect(findings.length).toBeGreaterThan(0);
    const plan = planAll(fixRules, ctx);
    expect(plan.edits.filter((e) => e.code === 'legacy-staging-host')).toEqual([]);
    const declined = plan.declined.filter((d) => d.code === 'legacy-staging-host');
    expect(declined.map((d) => `${d.file}:${d.line}`)).toEqual(findings.map((f) => `${f.file}:${f.line}`));
    expect(declined.some((d) => d.why.includes(why)), JSON.stringify(declined)).toBe(true);
  });
});

describe('issue 22 fix rules keep the layout byte for byte', () => {
  it('a reactor rewritten with CRLF, tabs and a UTF-8 BOM: the war insertion and the version edits copy its layout, every other byte stays', async () => {
    const dir = await cloneFixture(work.dir, 'mvn-default-profile', 'mvn-default-profile-layout', ['v0.9.0']);
    const poms = ['pom.xml', 'lib/pom.xml', 'lib-web/pom.xml'];
    for (const pom of poms) {
      const text = (await readFile(path.join(dir, pom), 'utf8')).replace(/^( {2})+/gm, (m) => '\t'.repeat(m.length / 2)).replace(/\n/g, '\r\n');
      await writeFile(path.join(dir, pom), pom === 'lib-web/pom.xml' ? `\ufeff${text}` : text);
    }
    await git(dir, work.dir, 'commit', '-q', '-am', 'CRLF, tabs, BOM');
    const env = gitIsolation(work.dir);
    const ctx = await fixContextFor(dir, { ...env, HOME: home });
    expect([...new Set(ctx.findings.map((f) => f.code))].sort()).toEqual(['orphan-tag', 'packaging-mismatch']);
    const plan = planAll(fixRules, ctx);
    const original = new Map(await Promise.all(poms.map(async (p) => [p, await readFile(path.join(dir, p))] as const)));
    await writePlan(dir, plan);
    for (const pom of poms) {
      const before = original.get(pom)!.toString('latin1');
      const after = (await readFile(path.join(dir, pom))).toString('latin1');
      expect(after.replace(/\r\n/g, '').includes('\n'), `${pom} gained a bare LF`).toBe(false);
      expect(after.startsWith('\xef\xbb\xbf')).toBe(pom === 'lib-web/pom.xml');
      const named = plan.edits.filter((e) => e.file === pom && e.start !== e.end).map((e) => e.line);
      expect(changedLines(before, after), pom).toEqual(named);
    }
    const web = await readFile(path.join(dir, 'lib-web/pom.xml'), 'utf8');
    expect(web).toContain('\t<artifactId>dp-web</artifactId>\r\n\t<packaging>war</packaging>\r\n\t<!-- A web module');
    expect(web).toContain('\t\t<version>0.9.1-SNAPSHOT</version>\r\n\t</parent>');
    await git(dir, work.dir, 'commit', '-q', '-am', 'fixed');
    const after = await preflightJson(dir, home, env);
    expect(after.codes).toEqual([]);
    await mavenValidate(dir);
  });
});

describe('--fix-metadata on the real-world corpus', () => {
  it('v-tagged without <url> and <scm><url>: both filled from the git remote; preflight no longer reports them and Maven reads the POM', async () => {
    const dir = await cloneFixture(work.dir, 'v-tagged', 'v-tagged-metadata');
    const pom = await readFile(path.join(dir, 'pom.xml'), 'utf8');
    const stripped = pom.replace('  <url>https://github.com/example/v-tagged</url>\n', '').replace('    <url>https://github.com/example/v-tagged</url>\n', '');
    await writeFile(path.join(dir, 'pom.xml'), stripped);
    await git(dir, work.dir, 'commit', '-q', '-am', 'no url');
    const env = gitIsolation(work.dir);
    const remoteUrl = 'git@github.com:example/v-tagged.git';
    const ctx = await fixContextFor(dir, { ...env, HOME: home }, { fixMetadata: true, remoteUrl });
    expect(ctx.findings.map((f) => f.code)).toEqual(['missing-pom-metadata']);
    const plan = planAll(fixRules, ctx);
    expect(plan.declined).toEqual([]);
    expect(plan.edits.map((e) => [e.line, e.after])).toEqual([
      [10, '<url>https://github.com/example/v-tagged</url>'],
      [25, '<scm><url>https://github.com/example/v-tagged</url></scm>'],
    ]);
    await writePlan(dir, plan);
    // Two new lines in the POM's own indentation; every other byte as it was.
    const expected = stripped
      .replace('</description>\n', '</description>\n  <url>https://github.com/example/v-tagged</url>\n')
      .replace('  <scm>\n', '  <scm>\n    <url>https://github.com/example/v-tagged</url>\n');
    expect(await readFile(path.join(dir, 'pom.xml'), 'utf8')).toBe(expected);
    await git(dir, work.dir, 'commit', '-q', '-am', 'fixed');
    expect((await preflightJson(dir, home, env)).codes).toEqual([]);
    await mavenValidate(dir);
    // Planned again (with or without --fix-metadata): nothing left to do.
    const plain = planAll(fixRules, await fixContextFor(dir, { ...env, HOME: home }));
    expect(plain).toEqual({ edits: [], declined: [] });
  });
});
