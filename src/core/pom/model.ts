import { child, children, type XmlElement } from './xml.js';

/** A value as written in one POM, with the line of its element. */
export interface Located<T = string> {
  value: T;
  line: number;
}

export interface ParentRef {
  groupId?: string;
  artifactId?: string;
  version?: string;
  /** As written; undefined means Maven's default `../pom.xml`, '' means "not on disk". */
  relativePath?: string;
  line: number;
}

export interface RawRepository {
  line: number;
  id?: Located;
  url?: Located;
}

export interface RawDeveloper {
  line: number;
  id?: string;
  name?: string;
  email?: string;
  organization?: string;
  organizationUrl?: string;
}

/** One POM as written (nothing inherited, nothing interpolated). */
export interface RawPom {
  projectLine: number;
  groupId?: Located;
  artifactId?: Located;
  version?: Located;
  packaging?: Located;
  name?: Located;
  description?: Located;
  url?: Located;
  parent?: ParentRef;
  licenses?: Located<number>;
  developers?: Located<RawDeveloper[]>;
  scm?: { line: number; url?: Located };
  distribution?: { line: number; repository?: RawRepository; snapshotRepository?: RawRepository };
  /** In declaration order; a Map so that keys such as `__proto__` stay ordinary data. */
  properties: Map<string, string>;
  modules: Located[];
}

function located(el: XmlElement | undefined): Located | undefined {
  if (el === undefined || el.text === '') return undefined;
  return { value: el.text, line: el.line };
}

function text(el: XmlElement | undefined): string | undefined {
  return el === undefined || el.text === '' ? undefined : el.text;
}

function repository(el: XmlElement | undefined): RawRepository | undefined {
  if (el === undefined) return undefined;
  const repo: RawRepository = { line: el.line };
  const id = located(child(el, 'id'));
  const url = located(child(el, 'url'));
  if (id !== undefined) repo.id = id;
  if (url !== undefined) repo.url = url;
  return repo;
}

/** Reads the POM model from a parsed `<project>` element. */
export function readPom(project: XmlElement): RawPom {
  const pom: RawPom = { projectLine: project.line, properties: new Map(), modules: [] };
  for (const key of ['groupId', 'artifactId', 'version', 'packaging', 'name', 'description', 'url'] as const) {
    const v = located(child(project, key));
    if (v !== undefined) pom[key] = v;
  }
  const parent = child(project, 'parent');
  if (parent !== undefined) {
    const ref: ParentRef = { line: parent.line };
    const g = text(child(parent, 'groupId'));
    const a = text(child(parent, 'artifactId'));
    const v = text(child(parent, 'version'));
    if (g !== undefined) ref.groupId = g;
    if (a !== undefined) ref.artifactId = a;
    if (v !== undefined) ref.version = v;
    const rel = child(parent, 'relativePath');
    if (rel !== undefined) ref.relativePath = rel.text;
    pom.parent = ref;
  }
  const licenses = child(project, 'licenses');
  if (licenses !== undefined) pom.licenses = { value: children(licenses, 'license').length, line: licenses.line };
  const developers = child(project, 'developers');
  if (developers !== undefined) {
    pom.developers = {
      line: developers.line,
      value: children(developers, 'developer').map((d) => {
        const dev: RawDeveloper = { line: d.line };
        for (const key of ['id', 'name', 'email', 'organization', 'organizationUrl'] as const) {
          const v = text(child(d, key));
          if (v !== undefined) dev[key] = v;
        }
        return dev;
      }),
    };
  }
  const scm = child(project, 'scm');
  if (scm !== undefined) {
    const url = located(child(scm, 'url'));
    pom.scm = url === undefined ? { line: scm.line } : { line: scm.line, url };
  }
  const dm = child(project, 'distributionManagement');
  if (dm !== undefined) {
    const d: NonNullable<RawPom['distribution']> = { line: dm.line };
    const repo = repository(child(dm, 'repository'));
    const snap = repository(child(dm, 'snapshotRepository'));
    if (repo !== undefined) d.repository = repo;
    if (snap !== undefined) d.snapshotRepository = snap;
    pom.distribution = d;
  }
  for (const p of child(project, 'properties')?.children ?? []) pom.properties.set(p.name, p.text);
  for (const m of children(child(project, 'modules'), 'module')) {
    const v = located(m);
    if (v !== undefined) pom.modules.push(v);
  }
  return pom;
}
