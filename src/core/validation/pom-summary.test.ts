import { describe, expect, it } from 'vitest';
import { summarizePom } from './pom-summary.js';

const parent = `<project><modelVersion>4.0.0</modelVersion>
  <groupId>org.ex</groupId><artifactId>parent</artifactId><version>3</version><packaging>pom</packaging>
  <dependencyManagement><dependencies>
    <dependency><groupId>org.ex</groupId><artifactId>core</artifactId><version>1</version></dependency>
  </dependencies></dependencyManagement>
</project>`;

const bom = `<project><modelVersion>4.0.0</modelVersion>
  <groupId>org.ex</groupId><artifactId>bom</artifactId><version>3</version><packaging>pom</packaging>
  <dependencyManagement><dependencies>
    <dependency><groupId>org.other</groupId><artifactId>lib</artifactId><version>2</version></dependency>
  </dependencies></dependencyManagement>
</project>`;

const poms = new Map([
  ['org.ex:parent:3', parent],
  ['org.ex:bom:3', bom],
]);
const load = (g: string, a: string, v: string): Promise<string | undefined> => Promise.resolve(poms.get(`${g}:${a}:${v}`));

const child = (dependencies: string, management = ''): string => `<project><modelVersion>4.0.0</modelVersion>
  <parent><groupId>org.ex</groupId><artifactId>parent</artifactId><version>3</version></parent>
  <artifactId>app</artifactId>
  ${management}
  <dependencies>${dependencies}</dependencies>
</project>`;

describe('summarizePom reads ${...} as the POM model does', () => {
  it('a dependency written ${pom.groupId} is the one the parent manages, not a dependency without a version', async () => {
    const r = await summarizePom(child('<dependency><groupId>${pom.groupId}</groupId><artifactId>core</artifactId></dependency>'), load);
    expect(r.ok && r.summary.dependencyVersions).toEqual({ known: true, missing: [] });
  });

  it('a BOM imported at ${project.parent.version} is read, so the answer is known', async () => {
    const management = '<dependencyManagement><dependencies><dependency><groupId>org.ex</groupId><artifactId>bom</artifactId><version>${project.parent.version}</version><type>pom</type><scope>import</scope></dependency></dependencies></dependencyManagement>';
    const managed = await summarizePom(child('<dependency><groupId>org.other</groupId><artifactId>lib</artifactId></dependency>', management), load);
    expect(managed.ok && managed.summary.dependencyVersions).toEqual({ known: true, missing: [] });
    const missing = await summarizePom(child('<dependency><groupId>org.other</groupId><artifactId>unmanaged</artifactId></dependency>', management), load);
    expect(missing.ok && missing.summary.dependencyVersions).toEqual({ known: true, missing: ['org.other:unmanaged'] });
  });
});
