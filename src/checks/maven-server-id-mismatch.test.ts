import { describe, expect, it } from 'vitest';
import { buildFacts, completeMetadata, pom, stagingDistribution } from '../../test/fixtures/maven/facts-builder.js';
import { mavenServerIdMismatch } from './maven-server-id-mismatch.js';

const files = { 'pom.xml': pom(`  <groupId>org.ex</groupId><artifactId>demo</artifactId><version>1</version>
${completeMetadata}
${stagingDistribution}`) };

describe('server-id-mismatch', () => {
  it('does not fire when a server with that id has username and password', () => {
    expect(mavenServerIdMismatch.run(buildFacts({ files }))).toEqual([]);
  });

  it('fires at the repository <id> line when no server has the id, naming the ids there are', () => {
    const findings = mavenServerIdMismatch.run(buildFacts({ files, servers: [{ id: 'ossrh', username: 'u', password: 'p' }] }));
    expect(findings).toMatchObject([{ code: 'server-id-mismatch', severity: 'error', file: 'pom.xml', line: 12 }]);
    expect(findings[0]?.message).toContain('"ossrh"');
  });

  it('says which variable is unset when the password comes from ${env.NAME}', () => {
    const findings = mavenServerIdMismatch.run(buildFacts({ files, servers: [{ id: 'central', username: 'u', unsetEnv: ['CENTRAL_PASSWORD'] }] }));
    expect(findings[0]?.message).toContain('CENTRAL_PASSWORD is not set');
    // The <server> is there (as preflight --fix writes it): the fix is the variable, not another <server>.
    expect(findings[0]?.fix).toMatch(/^Set CENTRAL_PASSWORD to the portal user token/);
    expect(findings[0]?.fix).not.toContain('Add <server>');
  });

  it('does not fire when relctl gets the token from RELCTL_TOKEN_USERNAME / RELCTL_TOKEN_PASSWORD', () => {
    expect(mavenServerIdMismatch.run(buildFacts({ files, servers: [], settingsFound: false, tokenFromEnv: true }))).toEqual([]);
  });

  it('says there is no settings file at all', () => {
    const findings = mavenServerIdMismatch.run(buildFacts({ files, servers: [], settingsFound: false }));
    expect(findings[0]?.message).toContain('no settings file at /home/.m2/settings.xml');
  });

  it('does not judge a repository id left as ${...} (a property CI sets with -D)', () => {
    const withProperty = { 'pom.xml': files['pom.xml'].replace('<id>central</id>', '<id>${release.repo.id}</id>') };
    expect(withProperty['pom.xml']).toContain('${release.repo.id}');
    expect(mavenServerIdMismatch.run(buildFacts({ files: withProperty, servers: [] }))).toEqual([]);
    expect(mavenServerIdMismatch.run(buildFacts({ files, servers: [] }))).toHaveLength(1);
  });
});
