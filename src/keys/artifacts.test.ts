import { describe, expect, it } from 'vitest';
import { pomCoordinates } from '../core/pom/coordinates.js';

describe('pomCoordinates', () => {
  it('reads the model, not the text: comments, CDATA and ${...} as Maven does', () => {
    // A line regex took the commented-out groupId, kept the CDATA markers and left ${revision} as written.
    const pom = `<project>
      <!-- <groupId>org.old</groupId> -->
      <parent><groupId>org.p</groupId><artifactId>parent</artifactId><version>3</version></parent>
      <artifactId><![CDATA[child]]></artifactId>
      <version>\${revision}</version>
      <packaging>war</packaging>
      <properties><revision>1.2.0</revision></properties>
    </project>`;
    expect(pomCoordinates(pom)).toEqual({ groupId: 'org.p', artifactId: 'child', version: '1.2.0', packaging: 'war' });
  });
});
