import { child, children, type XmlElement } from './xml.js';
import { dependencySectionDuplicates, readLicense, readRepositories, type DeclaredRepository, type DuplicateDeclaration, type RawLicense } from './declarations.js';

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
  url?: string;
  organization?: string;
  organizationUrl?: string;
}

/** One value inside a plugin's `<configuration>`: `path` is relative to it (`deploy/maven/mavenCentral`). */
export interface RawConfigValue {
  path: string;
  /** '' for an element that only has children. */
  value: string;
  line: number;
}

/** A build plugin as declared (`<build><plugins>`, `<pluginManagement>` or a profile's build). */
export interface RawPlugin {
  groupId: string;
  artifactId: string;
  version?: string;
  line: number;
  extensions: boolean;
  /** Declared in `<pluginManagement>`: configures the plugin, does not apply it. */
  managed: boolean;
  /** `<inherited>false</inherited>`: applies to the declaring POM only, not to its children. */
  notInherited?: boolean;
  /** The profile id when declared inside `<profiles>`. */
  profile?: string;
  /** Configuration values, only read for the plugins that decide the publishing route. */
  config: RawConfigValue[];
  /** Declares an `<execution>` with a goal (only read for the route plugins). */
  executes?: boolean;
  /** The goals its `<execution>`s bind (only read for the route plugins). */
  goals?: string[];
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
  /** Each `<license><url>`, in order. */
  licenseUrls: Located[];
  /** Each `<license>` with its name and url (whitespace-only values count as absent). */
  licenseEntries: RawLicense[];
  developers?: Located<RawDeveloper[]>;
  scm?: { line: number; url?: Located };
  distribution?: { line: number; repository?: RawRepository; snapshotRepository?: RawRepository };
  /** In declaration order; a Map so that keys such as `__proto__` stay ordinary data. */
  properties: Map<string, string>;
  modules: Located[];
  plugins: RawPlugin[];
  /** `<repositories>`/`<pluginRepositories>`, the project's and its profiles'. */
  repositories: DeclaredRepository[];
  /** The same plugin or dependency declared twice in one section (Maven's model warning). */
  duplicates: DuplicateDeclaration[];
  /** `<distributionManagement><relocation>`: the POM only points users at other coordinates. */
  relocation?: Located;
}

// Only these plugins' configuration is kept (the route, tag format, web content): the rest costs
// time and memory on big reactors.
const routePlugins = new Set([
  'nexus-staging-maven-plugin', 'central-publishing-maven-plugin', 'maven-release-plugin', 'jreleaser-maven-plugin', 'maven-deploy-plugin',
  'maven-war-plugin',
]);
const maxConfigDepth = 8;

function configValues(el: XmlElement | undefined, prefix: string, depth: number, out: RawConfigValue[]): void {
  if (el === undefined || depth > maxConfigDepth) return;
  for (const c of el.children) {
    const path = prefix === '' ? c.name : `${prefix}/${c.name}`;
    out.push({ path, value: c.text, line: c.line });
    configValues(c, path, depth + 1, out);
  }
}

function pluginsOf(build: XmlElement | undefined, profile: string | undefined, out: RawPlugin[], duplicates: DuplicateDeclaration[]): void {
  if (build === undefined) return;
  const lists: [XmlElement | undefined, boolean][] = [
    [child(build, 'plugins'), false],
    [child(child(build, 'pluginManagement'), 'plugins'), true],
  ];
  for (const [list, managed] of lists) {
    const seen = new Map<string, number>();
    for (const p of children(list, 'plugin')) {
      const artifactId = text(child(p, 'artifactId'));
      if (artifactId === undefined) continue;
      const plugin: RawPlugin = {
        groupId: text(child(p, 'groupId')) ?? 'org.apache.maven.plugins',
        artifactId,
        line: p.line,
        extensions: text(child(p, 'extensions')) === 'true',
        managed,
        config: [],
      };
      const key = `${plugin.groupId}:${artifactId}`;
      const first = seen.get(key);
      if (first === undefined) seen.set(key, p.line);
      else {
        // Maven's names: `build.plugins`, `profiles.profile[release].pluginManagement.plugins`.
        const section = `${profile === undefined ? 'build.' : `profiles.profile[${profile}].`}${managed ? 'pluginManagement.plugins' : 'plugins'}`;
        duplicates.push({ kind: 'plugin', key, section, line: p.line, firstLine: first });
      }
      const version = text(child(p, 'version'));
      if (version !== undefined) plugin.version = version;
      if (text(child(p, 'inherited')) === 'false') plugin.notInherited = true;
      if (profile !== undefined) plugin.profile = profile;
      if (routePlugins.has(artifactId)) {
        configValues(child(p, 'configuration'), '', 0, plugin.config);
        for (const ex of children(child(p, 'executions'), 'execution')) {
          configValues(child(ex, 'configuration'), '', 0, plugin.config);
          const goals = children(child(ex, 'goals'), 'goal').flatMap((g) => (g.text === '' ? [] : [g.text]));
          if (goals.length > 0) plugin.executes = true;
          if (goals.length > 0) plugin.goals = [...(plugin.goals ?? []), ...goals];
        }
      }
      out.push(plugin);
    }
  }
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

const coordinateKeys = ['groupId', 'artifactId', 'version', 'packaging', 'name', 'description', 'url'] as const;

/** Reads the POM model from a parsed `<project>` element. */
export function readPom(project: XmlElement): RawPom {
  // About twenty lookups among the project's children: index the first of each name once.
  const firsts = new Map<string, XmlElement>();
  // Indexed loops here and below: in a short-lived process this code is rarely optimised, and an
  // unoptimised for-of allocates an iterator result per element (a reactor has thousands of POMs).
  const all = project.children;
  for (let i = 0; i < all.length; i++) if (!firsts.has(all[i]!.name)) firsts.set(all[i]!.name, all[i]!);
  const top = (name: string): XmlElement | undefined => firsts.get(name);
  const pom: RawPom = {
    projectLine: project.line, properties: new Map(), modules: [], licenseUrls: [], licenseEntries: [], plugins: [], repositories: [], duplicates: [],
  };
  for (let i = 0; i < coordinateKeys.length; i++) {
    const key = coordinateKeys[i]!;
    const v = located(top(key));
    if (v !== undefined) pom[key] = v;
  }
  const parent = top('parent');
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
  const licenses = top('licenses');
  if (licenses !== undefined) {
    const list = children(licenses, 'license');
    pom.licenses = { value: list.length, line: licenses.line };
    for (const l of list) {
      const url = located(child(l, 'url'));
      if (url !== undefined) pom.licenseUrls.push(url);
      pom.licenseEntries.push(readLicense(l));
    }
  }
  const developers = top('developers');
  if (developers !== undefined) {
    pom.developers = {
      line: developers.line,
      value: children(developers, 'developer').map((d) => {
        const dev: RawDeveloper = { line: d.line };
        for (const key of ['id', 'name', 'email', 'url', 'organization', 'organizationUrl'] as const) {
          const v = text(child(d, key));
          if (v !== undefined) dev[key] = v;
        }
        return dev;
      }),
    };
  }
  const scm = top('scm');
  if (scm !== undefined) {
    const url = located(child(scm, 'url'));
    pom.scm = url === undefined ? { line: scm.line } : { line: scm.line, url };
  }
  // Older projects keep the release repository in a release profile: it is the one a release uses,
  // also when the top-level block only names the site or the snapshot repository.
  const declared = top('distributionManagement');
  const inProfile =
    child(declared, 'repository') === undefined
      ? children(top('profiles'), 'profile')
          .map((p) => child(p, 'distributionManagement'))
          .find((d) => child(d, 'repository') !== undefined)
      : undefined;
  const dm = declared ?? inProfile;
  if (dm !== undefined) {
    const d: NonNullable<RawPom['distribution']> = { line: dm.line };
    const repo = repository(child(dm, 'repository') ?? child(inProfile, 'repository'));
    const snap = repository(child(dm, 'snapshotRepository') ?? child(inProfile, 'snapshotRepository'));
    if (repo !== undefined) d.repository = repo;
    if (snap !== undefined) d.snapshotRepository = snap;
    pom.distribution = d;
  }
  const relocation = child(declared, 'relocation');
  if (relocation !== undefined) {
    const to = ['groupId', 'artifactId', 'version'].map((k) => text(child(relocation, k)) ?? '').join(':');
    pom.relocation = { value: to, line: relocation.line };
  }
  const props = top('properties')?.children ?? [];
  for (let i = 0; i < props.length; i++) pom.properties.set(props[i]!.name, props[i]!.text);
  const modules = children(top('modules'), 'module');
  for (let i = 0; i < modules.length; i++) {
    const v = located(modules[i]);
    if (v !== undefined) pom.modules.push(v);
  }
  pluginsOf(top('build'), undefined, pom.plugins, pom.duplicates);
  readRepositories(project, undefined, pom.repositories);
  dependencySectionDuplicates(project, '', pom.duplicates);
  const profiles = children(top('profiles'), 'profile');
  // Maven drops the default profiles when another profile of the POM activates itself (by JDK,
  // OS, property or file): then whether they are active depends on the machine.
  const othersMayActivate = profiles.some((p) => child(p, 'activation')?.children.some((c) => c.name !== 'activeByDefault') === true);
  for (const profile of profiles) {
    const id = text(child(profile, 'id')) ?? '(no id)';
    pluginsOf(child(profile, 'build'), id, pom.plugins, pom.duplicates);
    const activeByDefault = text(child(child(profile, 'activation'), 'activeByDefault')) === 'true';
    readRepositories(profile, { id, activeByDefault }, pom.repositories);
    dependencySectionDuplicates(profile, `profiles.profile[${id}].`, pom.duplicates);
    // A profile active by default is part of every ordinary build: its properties and modules count
    // (its properties even when it may be dropped: a value it defines is not a missing property).
    if (!activeByDefault) continue;
    for (const prop of child(profile, 'properties')?.children ?? []) pom.properties.set(prop.name, prop.text);
    if (othersMayActivate) continue;
    for (const m of children(child(profile, 'modules'), 'module')) {
      const v = located(m);
      if (v !== undefined) pom.modules.push(v);
    }
  }
  return pom;
}
