import { describe, expect, it } from 'vitest';
import { buildFacts, completeMetadata, pom, stagingDistribution } from '../../../test/fixtures/maven/facts-builder.js';
import { applyEdits } from '../../core/fix/apply.js';
import type { FixSource } from '../../core/fix/types.js';
import { mavenMissingDevelopers } from '../maven-missing-developers.js';
import { mavenMissingPomMetadata } from '../maven-missing-pom-metadata.js';
import { pomMetadataFix } from './pom-metadata.js';
import { browseUrlOf } from '../../core/remote-url.js';
import type { FixContext } from './types.js';

function context(text: string, fixMetadata: boolean, remoteUrl?: string): FixContext {
  const facts = buildFacts({ files: { 'pom.xml': text } });
  const findings = [...mavenMissingPomMetadata.run(facts), ...mavenMissingDevelopers.run(facts)];
  const options = { fixMetadata, usernameVariable: 'U', passwordVariable: 'P', ...(remoteUrl === undefined ? {} : { remoteUrl }) };
  return { facts, findings, options, read: (file): FixSource | undefined => (file === 'pom.xml' ? { file, text } : undefined) };
}

const without = (...drop: RegExp[]): string => drop.reduce((s, re) => s.replace(re, ''), completeMetadata);
const lean = (meta: string): string => pom(`  <groupId>org.ex</groupId>\n  <artifactId>demo</artifactId>\n  <version>1.0.0-SNAPSHOT</version>\n${meta}\n${stagingDistribution}`);

describe('browseUrlOf', () => {
  it('turns ssh, scp-like, git and https remotes into the web address, without credentials', () => {
    expect(browseUrlOf('git@github.com:o/r.git')).toBe('https://github.com/o/r');
    expect(browseUrlOf('ssh://git@github.com/o/r.git')).toBe('https://github.com/o/r');
    expect(browseUrlOf('https://x-access-token:ghp_secret@github.com/o/r.git')).toBe('https://github.com/o/r');
    expect(browseUrlOf('https://gitlab.com/group/sub/r/')).toBe('https://gitlab.com/group/sub/r');
    expect(browseUrlOf('git://github.com/o/r')).toBe('https://github.com/o/r');
  });

  it('gives nothing for a local path or a bare host', () => {
    expect(browseUrlOf('/srv/git/r.git')).toBeUndefined();
    expect(browseUrlOf('file:///srv/git/r.git')).toBeUndefined();
    expect(browseUrlOf('https://github.com/o')).toBeUndefined();
    expect(browseUrlOf(undefined)).toBeUndefined();
  });
});

describe('pomMetadataFix', () => {
  it('with --fix-metadata, inserts <url> after <description> and a <scm> block after <developers>, in the file\'s layout; other gaps are declined', () => {
    const text = lean(without(/ {2}<url>.*\n/, / {2}<scm>.*\n/, / {2}<description>.*\n/)).replace(/\n/g, '\r\n');
    const ctx = context(text, true, 'git@github.com:example/demo.git');
    expect(ctx.findings.map((f) => f.code)).toEqual(['missing-pom-metadata']);
    const plan = pomMetadataFix.plan(ctx);
    expect(plan.edits.map((e) => [e.line, e.after])).toEqual([
      [8, '<url>https://github.com/example/demo</url>'],
      [10, '<scm><url>https://github.com/example/demo</url></scm>'],
    ]);
    expect(plan.declined).toEqual([expect.objectContaining({ code: 'missing-pom-metadata', why: "add <description> to pom.xml: its value is a person's fact" })]);
    const fixed = applyEdits(text, plan.edits);
    expect(fixed).toContain('  <name>Demo</name>\r\n  <url>https://github.com/example/demo</url>\r\n  <licenses>');
    expect(fixed).toContain('</developers>\r\n  <scm>\r\n    <url>https://github.com/example/demo</url>\r\n  </scm>\r\n');
    const again = context(fixed, true, 'git@github.com:example/demo.git');
    expect(again.findings[0]!.message).toMatch(/lacks <description> \(/);
    expect(pomMetadataFix.plan(again).edits).toEqual([]);
  });

  it('adds <url> inside an existing <scm> with its children\'s indentation', () => {
    const text = lean(without(/ {2}<scm>.*\n/)).replace('</developers>', '</developers>\n\t<scm>\n\t\t<connection>scm:git:https://github.com/example/demo.git</connection>\n\t</scm>');
    const plan = pomMetadataFix.plan(context(text, true, 'https://github.com/example/demo.git'));
    expect(applyEdits(text, plan.edits)).toContain('\t<scm>\n\t\t<url>https://github.com/example/demo</url>\n\t\t<connection>');
  });

  it('without --fix-metadata, declines each element and each person\'s fact, with what to write', () => {
    const text = lean(without(/ {2}<url>.*\n/, /\n {2}<developers>.*/));
    const plan = pomMetadataFix.plan(context(text, false, 'git@github.com:example/demo.git'));
    expect(plan.edits).toEqual([]);
    expect(plan.declined.map((d) => [d.code, d.why])).toEqual([
      ['missing-pom-metadata', 'add <url> to pom.xml (filled from the git remote only with --fix-metadata)'],
      ['missing-developers', expect.stringMatching(/^who develops the component is a person's fact: Declare <developers>/)],
    ]);
  });
});
