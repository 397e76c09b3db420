import { interpolate, type PropertyLookup } from './interpolate.js';
import type { RawLicense } from './declarations.js';
import type { RawConfigValue, RawDeveloper, RawPlugin, RawPom, RawRepository } from './model.js';

/** Where a POM lives: `file` is root-relative (forward slashes) when the POM is in the project. */
export interface PomIdentity {
  /** `groupId:artifactId:version` as declared or inherited (not interpolated). */
  id: string;
  file?: string;
}

/** One POM of an inheritance chain. */
export interface ChainLink {
  pom: RawPom;
  identity: PomIdentity;
}

export interface Origin {
  pom: PomIdentity;
  line: number;
}

/** An effective value and the POM element it came from. */
export interface Sourced<T> {
  value: T;
  origin: Origin;
  /** True when the value came from an ancestor, not the POM itself. */
  inherited: boolean;
}

export interface EffectiveRepository {
  id?: Sourced<string>;
  url?: Sourced<string>;
}

export interface EffectivePom {
  groupId?: string;
  artifactId?: string;
  version?: string;
  /** `groupId:artifactId` (a '?' stands for a part that is missing). */
  coords: string;
  packaging: string;
  name?: Sourced<string>;
  description?: Sourced<string>;
  url?: Sourced<string>;
  /** Number of `<license>` entries in the nearest `<licenses>`. */
  licenses?: Sourced<number>;
  /** The `<license><url>` values of the nearest `<licenses>`, interpolated. */
  licenseUrls: Sourced<string>[];
  /** The `<license>` entries of the nearest `<licenses>` (where `licenses` says), not interpolated. */
  licenseEntries: RawLicense[];
  /** Developers of the nearest `<developers>`, their fields interpolated. */
  developers?: Sourced<RawDeveloper[]>;
  scmUrl?: Sourced<string>;
  repository?: EffectiveRepository;
  snapshotRepository?: EffectiveRepository;
  /** The nearest POM with a `<distributionManagement>` block (it shadows what ancestors declare). */
  distributionOrigin?: Origin;
  properties: Map<string, string>;
  /** Build plugins of the module and its ancestors (nearest first), profiles included. */
  plugins: EffectivePlugin[];
}

/** A build plugin in force for a module (its own or an ancestor's), configuration interpolated. */
export interface EffectivePlugin extends RawPlugin {
  origin: Origin;
  /** Configuration values; `from` marks one taken from `<pluginManagement>` (where it is written). */
  config: (RawConfigValue & { from?: Origin })[];
}

export interface EffectiveOptions {
  /** For `${env.NAME}` references. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Extra properties that win over the POM's, like `-Dname=value`. */
  userProperties?: ReadonlyMap<string, string>;
}

/**
 * Computes a module's effective model from its inheritance chain (`chain[0]` is the module,
 * then its parent, grandparent, ...), following Maven's inheritance rules: `artifactId`, `name`
 * and `packaging` are not inherited; `url` and `scm/url` get the child's artifactId appended;
 * `developers`, `licenses`, `scm` and `distributionManagement` are inherited from the nearest POM
 * that declares them (repository fields element by element, as Maven merges them). Values are
 * then interpolated in the module's own context (`${project.version}`, `${revision}`,
 * properties along the chain).
 */
export function effectivePom(chain: readonly ChainLink[], options: EffectiveOptions = {}): EffectivePom {
  const self = chain[0];
  if (self === undefined) throw new Error('effectivePom needs at least one POM');
  const own = self.pom;
  const origin = (link: ChainLink, line: number): Origin => ({ pom: link.identity, line });

  // Walk from the most distant ancestor down to the module: nearer POMs override. Each record is
  // built by this call, so one already marked inherited is kept rather than copied.
  const props = new Map<string, string>();
  let groupId: string | undefined;
  let version: string | undefined;
  let description: Sourced<string> | undefined;
  let url: Sourced<string> | undefined;
  let scmUrl: Sourced<string> | undefined;
  let licenses: Sourced<number> | undefined;
  let licenseUrls: Sourced<string>[] = [];
  let licenseEntries: RawLicense[] = [];
  let developers: Sourced<RawDeveloper[]> | undefined;
  const repository: EffectiveRepository = {};
  const snapshotRepository: EffectiveRepository = {};
  let distributionOrigin: Origin | undefined;
  for (let i = chain.length - 1; i >= 0; i--) {
    const link = chain[i]!;
    const pom = link.pom;
    const inherited = i > 0;
    const artifactId = pom.artifactId?.value ?? '';
    pom.properties.forEach((v, k) => props.set(k, v));
    groupId = pom.groupId?.value ?? pom.parent?.groupId ?? groupId;
    version = pom.version?.value ?? pom.parent?.version ?? version;
    if (pom.description !== undefined) description = { value: pom.description.value, origin: origin(link, pom.description.line), inherited };
    else if (description?.inherited === false) description = { ...description, inherited: true };
    url = pom.url !== undefined ? { value: pom.url.value, origin: origin(link, pom.url.line), inherited } : appendPath(url, artifactId);
    const scmUrlEl = pom.scm?.url;
    scmUrl = scmUrlEl !== undefined ? { value: scmUrlEl.value, origin: origin(link, scmUrlEl.line), inherited } : appendPath(scmUrl, artifactId);
    if (pom.licenses !== undefined) {
      licenses = { value: pom.licenses.value, origin: origin(link, pom.licenses.line), inherited };
      licenseUrls = pom.licenseUrls.map((u) => ({ value: u.value, origin: origin(link, u.line), inherited }));
      licenseEntries = pom.licenseEntries;
    } else if (licenses?.inherited === false) licenses = { ...licenses, inherited: true };
    if (pom.developers !== undefined) developers = { value: pom.developers.value, origin: origin(link, pom.developers.line), inherited };
    else if (developers?.inherited === false) developers = { ...developers, inherited: true };
    if (pom.distribution !== undefined) distributionOrigin = origin(link, pom.distribution.line);
    mergeRepository(repository, pom.distribution?.repository, link, inherited);
    mergeRepository(snapshotRepository, pom.distribution?.snapshotRepository, link, inherited);
  }
  if (options.userProperties !== undefined) for (const [k, v] of options.userProperties) props.set(k, v);

  const rawGroupId = groupId;
  const rawVersion = version;
  const artifactId = own.artifactId?.value;
  const lookup = projectPropertyLookup(own, { groupId: rawGroupId, version: rawVersion, properties: props, env: options.env });
  const ip = (v: string): string => interpolate(v, lookup);
  // The records below were all built by this call: one without a reference is used as it is.
  const sourced = <T extends Sourced<string> | undefined>(s: T): T => (s === undefined || !s.value.includes('${') ? s : ({ ...s, value: ip(s.value) } as T));

  const ipIf = (v: string): string => (v.includes('${') ? ip(v) : v);
  const plugins: EffectivePlugin[] = [];
  for (let i = 0; i < chain.length; i++) {
    const link = chain[i]!;
    for (const p of link.pom.plugins) {
      if (i > 0 && p.notInherited === true) continue;
      const config: RawConfigValue[] = p.config.map((c) => (c.value.includes('${') ? { ...c, value: ip(c.value) } : c));
      plugins.push({ ...p, config, origin: origin(link, p.line) });
    }
  }
  applyManagement(plugins);
  const eff: EffectivePom = {
    coords: '',
    packaging: own.packaging === undefined ? 'jar' : ip(own.packaging.value),
    properties: props,
    licenseUrls: licenseUrls.map((u) => sourced(u)),
    licenseEntries,
    plugins,
  };
  if (groupId !== undefined) eff.groupId = ip(groupId);
  if (artifactId !== undefined) eff.artifactId = ip(artifactId);
  if (version !== undefined) eff.version = ip(version);
  eff.coords = `${eff.groupId ?? '?'}:${eff.artifactId ?? '?'}`;
  if (own.name !== undefined) eff.name = { value: ip(own.name.value), origin: origin(self, own.name.line), inherited: false };
  const d = sourced(description);
  if (d !== undefined) eff.description = d;
  const u = sourced(url);
  if (u !== undefined) eff.url = u;
  const s = sourced(scmUrl);
  if (s !== undefined) eff.scmUrl = s;
  if (licenses !== undefined) eff.licenses = licenses;
  if (developers !== undefined) {
    const fields = ['id', 'name', 'email', 'url', 'organization', 'organizationUrl'] as const;
    const value = developers.value.map((d) => {
      if (!fields.some((k) => d[k]?.includes('${') === true)) return d;
      const out: RawDeveloper = { ...d };
      for (const k of fields) if (out[k] !== undefined) out[k] = ipIf(out[k]);
      return out;
    });
    eff.developers = { ...developers, value };
  }
  if (distributionOrigin !== undefined) eff.distributionOrigin = distributionOrigin;
  if (repository.id !== undefined || repository.url !== undefined) eff.repository = interpolatedRepo(repository, sourced);
  if (snapshotRepository.id !== undefined || snapshotRepository.url !== undefined) eff.snapshotRepository = interpolatedRepo(snapshotRepository, sourced);
  return eff;
}

/**
 * A plugin declared in `<plugins>` (a profile's too) takes what `<pluginManagement>` sets for it
 * and it does not set itself, as Maven merges them: the usual shape configures a publishing plugin
 * once in pluginManagement and switches it on, bare, in a release profile.
 */
function applyManagement(plugins: EffectivePlugin[]): void {
  if (!plugins.some((p) => p.managed)) return;
  for (let i = 0; i < plugins.length; i++) {
    const p = plugins[i]!;
    if (p.managed) continue;
    // Nearest first: the first managed declaration in chain order wins.
    const m = plugins.find((x) => x.managed && x.artifactId === p.artifactId && x.groupId === p.groupId);
    if (m === undefined) continue;
    const own = new Set(p.config.map((c) => c.path));
    const inherited = m.config.filter((c) => !own.has(c.path)).map((c) => ({ ...c, from: c.from ?? { pom: m.origin.pom, line: c.line } }));
    const adds = inherited.length > 0 || (m.extensions && !p.extensions) || (m.executes === true && p.executes !== true);
    if (!adds && (p.version !== undefined || m.version === undefined)) continue;
    const merged: EffectivePlugin = { ...p, config: [...p.config, ...inherited], extensions: p.extensions || m.extensions };
    if (m.executes === true) merged.executes = true;
    if (m.goals !== undefined) merged.goals = [...new Set([...(p.goals ?? []), ...m.goals])];
    if (merged.version === undefined && m.version !== undefined) merged.version = m.version;
    plugins[i] = merged;
  }
}

function interpolatedRepo(repo: EffectiveRepository, sourced: <T extends Sourced<string> | undefined>(s: T) => T): EffectiveRepository {
  const out: EffectiveRepository = { ...repo };
  if (out.id !== undefined) out.id = sourced(out.id);
  if (out.url !== undefined) out.url = sourced(out.url);
  return out;
}

/** Maven appends the child's artifactId to an inherited project or SCM URL. */
function appendPath(parent: Sourced<string> | undefined, artifactId: string): Sourced<string> | undefined {
  if (parent === undefined) return undefined;
  if (artifactId === '') return { ...parent, inherited: true };
  const base = parent.value.endsWith('/') ? parent.value : `${parent.value}/`;
  return { ...parent, value: `${base}${artifactId}`, inherited: true };
}

function mergeRepository(target: EffectiveRepository, raw: RawRepository | undefined, link: ChainLink, inherited: boolean): void {
  if (raw?.id !== undefined) target.id = { value: raw.id.value, origin: { pom: link.identity, line: raw.id.line }, inherited };
  else if (target.id?.inherited === false) target.id = { ...target.id, inherited: true };
  if (raw?.url !== undefined) target.url = { value: raw.url.value, origin: { pom: link.identity, line: raw.url.line }, inherited };
  else if (target.url?.inherited === false) target.url = { ...target.url, inherited: true };
}

/**
 * What `${...}` means in a module's POM: `project.*` (and the older `pom.*` and bare forms) of
 * the module, `parent.*` of its `<parent>`, `env.*`, then the properties along the chain. The one
 * lookup of the POM model: the validation rules that read a POM again use it too.
 */
export function projectPropertyLookup(
  own: RawPom,
  model: { groupId: string | undefined; version: string | undefined; properties: ReadonlyMap<string, string>; env?: Readonly<Record<string, string | undefined>> | undefined },
): PropertyLookup {
  const artifactId = own.artifactId?.value;
  return (name) => {
    switch (name) {
      case 'project.groupId':
      case 'pom.groupId':
      case 'groupId':
        return model.groupId;
      case 'project.artifactId':
      case 'pom.artifactId':
      case 'artifactId':
        return artifactId;
      case 'project.version':
      case 'pom.version':
      case 'version':
        return model.version;
      case 'project.parent.version':
      case 'parent.version':
        return own.parent?.version;
      case 'project.parent.groupId':
      case 'parent.groupId':
        return own.parent?.groupId;
      case 'project.parent.artifactId':
      case 'parent.artifactId':
        return own.parent?.artifactId;
      case 'project.name':
        return own.name?.value;
    }
    if (name.startsWith('env.')) return model.env?.[name.slice(4)];
    return model.properties.get(name);
  };
}
