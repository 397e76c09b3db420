import { describe, expect, it } from 'vitest';
import { completeMetadata, pom } from '../../../test/fixtures/maven/facts-builder.js';
import { fixProject, server, settingsWith, type MavenProject } from '../../../test/helpers/maven-fix-project.js';
import type { MavenFacts } from '../../build-tools/maven/facts.js';

const staging = 'https://ossrh-staging-api.central.sonatype.com/service/local/staging/deploy/maven2/';
// A root aggregator (never published) listing a standalone library whose own POM deploys.
const root = pom(`  <groupId>org.ex</groupId><artifactId>aggregator</artifactId><version>1</version><packaging>pom</packaging>\n  <modules><module>lib</module><module>devserver</module></modules>`);
const lib = pom(`  <groupId>org.ex</groupId><artifactId>lib</artifactId><version>1.0.0-SNAPSHOT</version>\n${completeMetadata}\n  <distributionManagement><repository><id>central</id><url>${staging}</url></repository></distributionManagement>`);
const devserver = pom(`  <parent><groupId>org.ex</groupId><artifactId>aggregator</artifactId><version>1</version></parent>\n  <artifactId>devserver</artifactId>\n${completeMetadata}`);

const withDeploys = (ciDeploys: NonNullable<MavenFacts['ciDeploys']>): MavenProject => ({
  files: { 'pom.xml': root, 'lib/pom.xml': lib, 'devserver/pom.xml': devserver },
  settings: settingsWith(server('central')),
  adjust: (facts) => {
    facts.maven!.ciDeploys = ciDeploys;
  },
});

describe('no <distributionManagement> for a POM the release never deploys', () => {
  it('the CI deploys with -f lib/pom.xml: the root aggregator (and with it devserver) is declined with why and what to write; nothing is edited', () => {
    const { plan } = fixProject(withDeploys([{ via: '.github/workflows/release.yml', file: 'lib/pom.xml' }]));
    expect(plan.edits).toEqual([]);
    const declined = plan.declined.filter((d) => d.code === 'missing-distribution');
    // devserver inherits its gap from the root, where it is reported once.
    expect(declined.map((d) => d.file)).toEqual(['pom.xml']);
    expect(declined.find((d) => d.file === 'pom.xml')!.why).toBe(
      `the release deploys with mvn -f lib/pom.xml deploy in .github/workflows/release.yml, which never deploys pom.xml nor a module inheriting from it, so it needs no <distributionManagement> and relctl leaves it as it is; if the release does deploy it, write this yourself: Add <distributionManagement><repository><id>central</id><url>${staging}</url></repository></distributionManagement> to the top-level pom.xml.`,
    );
  });

  it('-pl devserver deploys devserver and so its parent, the root: the root gets the block (as before)', () => {
    const { plan } = fixProject(withDeploys([{ via: '.gitlab-ci.yml', projects: ['devserver'] }]));
    expect(plan.edits.filter((e) => e.code === 'missing-distribution').map((e) => e.file)).toEqual(['pom.xml']);
  });

  it('no deploy command known (or one from a variable): nothing is taken as evidence', () => {
    expect(fixProject(withDeploys([{ via: 'ci.yml', unknown: true }])).plan.edits.map((e) => e.file)).toContain('pom.xml');
    const { plan } = fixProject({ ...withDeploys([]), adjust: () => undefined });
    expect(plan.edits.map((e) => e.file)).toContain('pom.xml');
  });
});

describe('the deploy command as preflight reads it from the CI scripts', () => {
  it('a workflow running mvn -f lib/pom.xml deploy: the gathered facts name it, and the root is declined', async () => {
    const { rm } = await import('node:fs/promises');
    const { scratchContext, scratchParent, planAll } = await import('../../../test/helpers/fix-rules.js');
    const { fixRules } = await import('./index.js');
    const parent = await scratchParent();
    try {
      const workflow = 'on: push\njobs:\n  release:\n    runs-on: ubuntu-latest\n    steps:\n      - run: mvn -B -f lib/pom.xml deploy\n';
      const { ctx } = await scratchContext(parent, { 'pom.xml': root, 'lib/pom.xml': lib, 'devserver/pom.xml': devserver, '.github/workflows/release.yml': workflow });
      expect(ctx.facts.maven!.ciDeploys).toEqual([{ via: '.github/workflows/release.yml', file: 'lib/pom.xml' }]);
      const plan = planAll(fixRules, ctx);
      expect(plan.edits.filter((e) => e.file === 'pom.xml')).toEqual([]);
      expect(plan.declined).toContainEqual(expect.objectContaining({ code: 'missing-distribution', file: 'pom.xml', why: expect.stringContaining('which never deploys pom.xml') }));
    } finally {
      await rm(parent, { recursive: true, force: true });
    }
  });
});
