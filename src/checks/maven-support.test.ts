import { describe, expect, it } from 'vitest';
import { buildFacts, completeMetadata, pom } from '../../test/fixtures/maven/facts-builder.js';
import { isPublished } from './maven-support.js';
import { detectRoute } from './route.js';

const central = '<plugin><groupId>org.sonatype.central</groupId><artifactId>central-publishing-maven-plugin</artifactId><extensions>true</extensions></plugin>';
const jreleaser = '<plugin><groupId>org.jreleaser</groupId><artifactId>jreleaser-maven-plugin</artifactId><configuration><deploy><maven><mavenCentral><sonatype><active>ALWAYS</active></sonatype></mavenCentral></maven></deploy></configuration></plugin>';

/** One module whose uploader is `plugin`, skipped by maven.deploy.skip only. */
function module(plugin: string): boolean {
  const facts = buildFacts({ files: { 'pom.xml': pom(`  <groupId>org.ex</groupId><artifactId>demo</artifactId><version>1.0.0-SNAPSHOT</version>\n${completeMetadata}\n  <build><plugins>${plugin}</plugins></build>`) } });
  facts.route = detectRoute(facts);
  expect(facts.route.kind).toBe('portal-plugin');
  const m = facts.maven!.modules[0]!;
  m.skips = { deploy: true, publishing: false };
  return isPublished(facts, m);
}

describe('isPublished', () => {
  it('the Central Portal plugin ignores maven.deploy.skip; JReleaser, staging through maven-deploy, honours it', () => {
    expect(module(central)).toBe(true);
    expect(module(jreleaser)).toBe(false);
  });
});
