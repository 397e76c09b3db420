import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { coordinateProblem, coordinatesRefusal, quotedCoordinate, repositoryFile, repositoryPom } from './maven-coordinates.js';

describe('Maven coordinates as paths', () => {
  const root = path.resolve('/r/m2');

  it("accepts what Maven's model validator accepts", () => {
    expect(coordinatesRefusal({ groupId: 'org.apache.maven', artifactId: 'maven-core_2.13', version: '3.9.9-RC1+build.7' })).toBeUndefined();
    expect(repositoryPom(root, { groupId: 'org.acme', artifactId: 'acme-parent', version: '2-SNAPSHOT' })).toBe(path.join(root, 'org', 'acme', 'acme-parent', '2-SNAPSHOT', 'acme-parent-2-SNAPSHOT.pom'));
    expect(repositoryFile(root, { groupId: 'org.acme', artifactId: 'lib' })).toBe(path.join(root, 'org', 'acme', 'lib'));
  });

  it('refuses every value that would leave its folder or is not Maven syntax, naming the field', () => {
    const climbing = '../../../.m2/repository/org/apache/apache';
    expect(coordinatesRefusal({ groupId: 'org.evil', artifactId: climbing, version: '33' })).toMatchObject({ field: 'artifactId', value: climbing });
    for (const artifactId of ['..', '.', 'a/b', 'a\\b', 'a\tb', 'a b', '', 'x..y']) expect(coordinateProblem('artifactId', artifactId), artifactId).toBeDefined();
    for (const groupId of ['org..evil', '.org', 'org/evil', 'org\\evil', 'org.\u0000']) expect(coordinateProblem('groupId', groupId), groupId).toBeDefined();
    for (const version of ['1/2', '1\\2', '..', '1..2', '1:2', '1\u00072', '1\n', '1?', '']) expect(coordinateProblem('version', version), JSON.stringify(version)).toBeDefined();
    expect(repositoryPom(root, { groupId: 'org.evil', artifactId: climbing, version: '33' })).toBeUndefined();
    expect(repositoryPom(root, { groupId: 'org.evil', artifactId: 'lib', version: '33/../../../x' })).toBeUndefined();
    // Incomplete or still a property reference: no path, no refusal either.
    expect(repositoryPom(root, { groupId: 'org.acme', artifactId: 'lib' })).toBeUndefined();
    expect(repositoryPom(root, { groupId: 'org.acme', artifactId: 'lib', version: '${revision}' })).toBeUndefined();
    expect(repositoryFile(root, { groupId: 'org.acme', artifactId: 'lib', version: '1' }, '../x.pom')).toBeUndefined();
  });

  it('quotes a refused value inertly', () => {
    expect(quotedCoordinate('a\u001b[31mb\u202e')).toBe('"a\\u001b[31mb\\u202e"');
  });
});
