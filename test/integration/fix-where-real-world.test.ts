/**
 * Issue 29: `--fix` edits where the value is written and only where the release reads it, and
 * gives version-aware advice, on the real-world corpus (test/fixtures/real-world, descriptors of
 * real projects from before their OSSRH migration): the plan of every rule on preflight's own facts.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixRules } from '../../src/checks/fixes/index.js';
import type { FixPlan } from '../../src/core/fix/types.js';
import { fixContextFor, planAll } from '../helpers/fix-rules.js';
import { corpus } from '../helpers/real-world.js';

const emptyHome = path.join(corpus, 'empty-home');

async function planOf(fixture: string): Promise<FixPlan> {
  return planAll(fixRules, await fixContextFor(path.join(corpus, fixture), { HOME: emptyHome }));
}

describe('--fix on the real-world corpus: where the value is written, where the release reads it', () => {
  it('mvn-property-distribution: the URLs change in <properties> (releases, snapshots, the nexusUrl base), not at their ${…} uses', async () => {
    const plan = await planOf('mvn-property-distribution');
    const host = plan.edits.filter((e) => e.code === 'legacy-staging-host').map((e) => [e.file, e.line, e.before, e.after]);
    expect(host).toEqual([
      ['pom.xml', 42, 'https://oss.sonatype.org/', 'https://ossrh-staging-api.central.sonatype.com/'],
      ['pom.xml', 41, 'https://oss.sonatype.org/service/local/staging/deploy/maven2/', 'https://ossrh-staging-api.central.sonatype.com/service/local/staging/deploy/maven2/'],
      ['pom.xml', 44, 'https://oss.sonatype.org/content/repositories/snapshots', 'https://central.sonatype.com/repository/maven-snapshots/'],
    ]);
    expect(plan.edits.some((e) => e.before.includes('${'))).toBe(false);
  });

  it('maven-ci-settings-file: the release job passes --settings .github/maven-settings.xml, which has the <server>: nothing is added to ~/.m2/settings.xml', async () => {
    const plan = await planOf('maven-ci-settings-file');
    expect(plan.edits.filter((e) => path.isAbsolute(e.file))).toEqual([]);
    expect(plan.declined).toContainEqual(
      expect.objectContaining({ code: 'server-id-mismatch', file: '.github/maven-settings.xml', why: expect.stringContaining('passes to mvn with -s, so the release reads it and not ~/.m2/settings.xml) already has a <server>') }),
    );
  });

  it.each(['gradle-vanniktech-base-s01', 'kts-moshi-apply-false-s01'])('%s (vanniktech 0.25.3, SonatypeHost.S01): the upgrade and what to write, never only "drop it"', async (fixture) => {
    const plan = await planOf(fixture);
    const why = plan.declined.filter((d) => d.code === 'legacy-staging-host').map((d) => d.why);
    expect(why).toEqual([expect.stringMatching(/0\.25\.3 has no Central Portal target .* to 0\.34\.0 and replace SonatypeHost\.S01 with publishToMavenCentral\(\) without a host/)]);
  });

  it('kts-detekt-nexus-create (gradle-nexus default host): the decline names both URLs to write', async () => {
    const plan = await planOf('kts-detekt-nexus-create');
    expect(plan.declined.find((d) => d.code === 'legacy-staging-host')?.why).toContain(
      'Set nexusUrl to https://ossrh-staging-api.central.sonatype.com/service/local/ and snapshotRepositoryUrl to https://central.sonatype.com/repository/maven-snapshots/',
    );
  });
});
