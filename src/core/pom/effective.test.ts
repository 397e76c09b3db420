import { describe, expect, it } from 'vitest';
import { effectivePomFromText, hasUnresolved, interpolate, parsePom } from './index.js';

const parent = `<project>
  <groupId>org.example</groupId>
  <artifactId>parent</artifactId>
  <version>3</version>
  <name>Parent name</name>
  <description>Shared description</description>
  <url>https://example.org/site</url>
  <licenses><license><name>Apache-2.0</name></license></licenses>
  <developers><developer><name>Ada</name></developer></developers>
  <scm><url>https://example.org/git</url></scm>
  <properties><base.url>https://repo.example.org</base.url><who>parent</who></properties>
  <distributionManagement>
    <repository><id>parent-id</id><url>\${base.url}/\${project.artifactId}/\${project.version}</url></repository>
  </distributionManagement>
</project>`;

const childText = (extra = ''): string => `<project>
  <parent><groupId>org.example</groupId><artifactId>parent</artifactId><version>3</version></parent>
  <artifactId>child</artifactId>
  <version>\${revision}</version>
  <properties><revision>1.4.0-SNAPSHOT</revision><who>child</who></properties>
${extra}
</project>`;

function effective(text: string, parents: Record<string, string> = { 'org.example:parent:3': parent }) {
  const r = effectivePomFromText(text, (ref) => parents[`${ref.groupId}:${ref.artifactId}:${ref.version}`]);
  if (!r.ok) throw new Error(r.message);
  return r;
}

describe('effective model (Maven inheritance)', () => {
  it('does not inherit name or artifactId but inherits groupId, description, licenses, developers, scm', () => {
    const { effective: e } = effective(childText());
    expect(e.name).toBeUndefined();
    expect(e.artifactId).toBe('child');
    expect(e.coords).toBe('org.example:child');
    expect(e.description?.value).toBe('Shared description');
    expect(e.description?.inherited).toBe(true);
    expect(e.licenses?.value).toBe(1);
    expect(e.developers?.value[0]?.name).toBe('Ada');
    expect(e.packaging).toBe('jar');
  });

  it("appends the child's artifactId to inherited url and scm/url", () => {
    const { effective: e } = effective(childText());
    expect(e.url?.value).toBe('https://example.org/site/child');
    expect(e.scmUrl?.value).toBe('https://example.org/git/child');
  });

  it('interpolates ${revision}, ${project.*} and properties along the chain in the child context', () => {
    const { effective: e } = effective(childText());
    expect(e.version).toBe('1.4.0-SNAPSHOT');
    expect(e.repository?.url?.value).toBe('https://repo.example.org/child/1.4.0-SNAPSHOT');
    expect(e.properties.get('who')).toBe('child');
  });

  it('keeps the origin (file line) of an inherited value', () => {
    const { effective: e } = effective(childText());
    expect(e.repository?.id?.inherited).toBe(true);
    expect(e.repository?.id?.origin.pom.id).toBe('org.example:parent:3');
    expect(e.repository?.url?.origin.line).toBe(13);
  });

  it('lets a child distributionManagement shadow the parent, merging repository fields like Maven', () => {
    const dm = '<distributionManagement><repository><url>https://new.example/x</url></repository></distributionManagement>';
    const { effective: e } = effective(childText(dm));
    expect(e.repository?.url?.value).toBe('https://new.example/x');
    expect(e.repository?.url?.inherited).toBe(false);
    expect(e.repository?.id?.value).toBe('parent-id');
    expect(e.distributionOrigin?.line).toBe(6);
  });

  it('reports an unresolved parent and a parent cycle without looping', () => {
    expect(effective(childText(), {}).problem?.kind).toBe('unresolved');
    const a = '<project><parent><groupId>g</groupId><artifactId>b</artifactId><version>1</version></parent><groupId>g</groupId><artifactId>a</artifactId><version>1</version></project>';
    const b = '<project><parent><groupId>g</groupId><artifactId>a</artifactId><version>1</version></parent><groupId>g</groupId><artifactId>b</artifactId><version>1</version></project>';
    const r = effective(a, { 'g:a:1': a, 'g:b:1': b });
    expect(r.problem?.kind).toBe('cycle');
  });

  it('leaves unknown and self-referencing properties as written', () => {
    const text = '<project><artifactId>x</artifactId><properties><p>${p}</p></properties><url>${p}/${nope}</url></project>';
    expect(effective(text, {}).effective.url?.value).toBe('${p}/${nope}');
  });

  it('handles a long run of unterminated references in linear time (no catastrophic backtracking)', () => {
    const nasty = '${env.'.repeat(200_000);
    expect(interpolate(nasty, () => 'x')).toBe(nasty);
    expect(hasUnresolved(nasty)).toBe(false);
  });

  it('resolves ${env.NAME} from the supplied environment only', () => {
    const text = '<project><artifactId>x</artifactId><url>${env.SITE}</url></project>';
    const r = effectivePomFromText(text, () => undefined, { env: { SITE: 'https://s' } });
    expect(r.ok && r.effective.url?.value).toBe('https://s');
  });
});

describe('parsePom', () => {
  it('finds element lines in the raw text, CRLF included', () => {
    const r = parsePom('<?xml version="1.0"?>\r\n<project>\r\n  <!-- x -->\r\n  <artifactId>a</artifactId>\r\n  <modules>\r\n    <module>m</module>\r\n  </modules>\r\n</project>\r\n');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.pom.projectLine).toBe(2);
    expect(r.pom.artifactId).toEqual({ value: 'a', line: 4 });
    expect(r.pom.modules).toEqual([{ value: 'm', line: 6 }]);
  });

  it('reports malformed XML with the line, binary data and non-POM roots without throwing', () => {
    expect(parsePom('<project>\n<name>x\n</project>')).toMatchObject({ ok: false, line: 3 });
    expect(parsePom('\u0000\u0001\u00ff')).toMatchObject({ ok: false });
    expect(parsePom('<settings/>')).toMatchObject({ ok: false, message: expect.stringContaining('<settings>') });
    expect(parsePom('')).toMatchObject({ ok: false });
  });

  it('keeps property names such as constructor as plain data', () => {
    const r = parsePom('<project><properties><__proto__>x</__proto__><constructor>y</constructor></properties></project>');
    expect(r.ok && r.pom.properties.get('constructor')).toBe('y');
    expect(r.ok && r.pom.properties.get('__proto__')).toBe('x');
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});

describe('profiles active by default', () => {
  it('add their properties and modules; other profiles do not', () => {
    const parsed = parsePom(`<project><artifactId>a</artifactId><properties><site.host>old.example.org</site.host></properties><modules><module>core</module></modules>
<profiles>
<profile><id>default</id><activation><activeByDefault>true</activeByDefault></activation><properties><site.host>example.org</site.host></properties><modules><module>extra</module></modules></profile>
<profile><id>ci</id><properties><site.host>ci.example.org</site.host></properties><modules><module>ci-only</module></modules></profile>
</profiles></project>`);
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.pom.properties.get('site.host')).toBe('example.org');
    expect(parsed.pom.modules.map((m) => m.value)).toEqual(['core', 'extra']);
  });

  it('keep their modules out when another profile of the POM may activate itself (Maven then drops the default)', () => {
    const parsed = parsePom(`<project><artifactId>a</artifactId><modules><module>core</module></modules><profiles>
<profile><id>default</id><activation><activeByDefault>true</activeByDefault></activation><properties><x>1</x></properties><modules><module>extra</module></modules></profile>
<profile><id>jdk17</id><activation><jdk>[17,)</jdk></activation></profile>
</profiles></project>`);
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.pom.modules.map((m) => m.value)).toEqual(['core']);
    expect(parsed.pom.properties.get('x')).toBe('1');
  });
});

describe('the release repository of a release profile', () => {
  it('is used when the top-level distributionManagement names only the site or snapshots', () => {
    const parsed = parsePom(`<project><artifactId>a</artifactId>
<distributionManagement><site><id>site</id><url>scm:git:x</url></site><snapshotRepository><id>s</id><url>https://snap.example.org/</url></snapshotRepository></distributionManagement>
<profiles><profile><id>release</id><distributionManagement><repository><id>central</id><url>https://rel.example.org/</url></repository></distributionManagement></profile></profiles>
</project>`);
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.pom.distribution).toMatchObject({ line: 2, repository: { id: { value: 'central' }, url: { value: 'https://rel.example.org/', line: 3 } }, snapshotRepository: { id: { value: 's' } } });
  });
});

describe('plugins declared bare in <plugins> take their <pluginManagement> settings', () => {
  it('merges configuration (own values win), extensions and version, and says where a merged value is written', () => {
    const parent = `<project><groupId>g</groupId><artifactId>p</artifactId><version>1</version><build><pluginManagement><plugins>
<plugin><groupId>org.sonatype.central</groupId><artifactId>central-publishing-maven-plugin</artifactId><version>0.8.0</version><extensions>true</extensions>
<configuration><publishingServerId>portal</publishingServerId><autoPublish>false</autoPublish></configuration></plugin>
</plugins></pluginManagement></build></project>`;
    const child = `<project><parent><groupId>g</groupId><artifactId>p</artifactId><version>1</version></parent><artifactId>c</artifactId>
<profiles><profile><id>release</id><build><plugins>
<plugin><groupId>org.sonatype.central</groupId><artifactId>central-publishing-maven-plugin</artifactId><configuration><autoPublish>true</autoPublish></configuration></plugin>
</plugins></build></profile></profiles></project>`;
    const r = effectivePomFromText(child, () => parent, { file: 'pom.xml' });
    if (!r.ok) throw new Error(r.message);
    const used = r.effective.plugins.find((p) => !p.managed)!;
    expect(used).toMatchObject({ profile: 'release', extensions: true, version: '0.8.0' });
    expect(Object.fromEntries(used.config.map((c) => [c.path, c.value]))).toEqual({ autoPublish: 'true', publishingServerId: 'portal' });
    expect(used.config.find((c) => c.path === 'publishingServerId')?.from).toMatchObject({ pom: { id: 'g:p:1' }, line: 3 });
  });
});
