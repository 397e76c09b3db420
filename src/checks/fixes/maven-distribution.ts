/**
 * Maven `legacy-staging-host`, `distribution-url`, `missing-distribution` and `legacy-staging-id`
 * (DESIGN §4, Fixes). A value written in a project POM changes where it is written (the line the
 * finding names); a value inherited from outside the project is shadowed by a
 * `<distributionManagement>` in the project's own top POM of that chain (the file the finding
 * names), as the release procedure says: a parent outside the project is never edited. A URL
 * written as `${property}` changes where the property is defined (maven-property-url.ts).
 * The repository id changes only together with the settings `<server>` (maven-server-id.ts).
 */
import type { Finding } from '../../core/findings.js';
import type { FixDeclined, FixEdit, FixPlan } from '../../core/fix/types.js';
import { insertAfter, insertFirst, lastOf, appendLast, replaceText, renderInline, type NewElement } from '../../core/fix/xml-text.js';
import { child, type XmlElement } from '../../core/pom/xml.js';
import type { MavenModuleFacts } from '../../build-tools/maven/facts.js';
import { CENTRAL_SNAPSHOTS_URL, expectedDeployUrl, legacyHostOf } from '../maven-support.js';
import { distributionCodes, isLegacyId, NEW_REPOSITORY_ID, renameServer } from './maven-server-id.js';
import type { FixContext, FixRule } from './types.js';
import { pathAtLine, readXml, type XmlDoc } from './xml-fix-support.js';
import { declined as declinedAt, editOf, oneLine } from './edits.js';
import { propertyUrlFix } from './maven-property-url.js';
import { neverDeployed } from './never-deployed.js';

const codes = distributionCodes;

// Maven's canonical order: distributionManagement comes after these (the ones a POM has).
const beforeDistribution = [
  'modelVersion', 'parent', 'groupId', 'artifactId', 'version', 'packaging', 'name', 'description', 'url', 'inceptionYear',
  'organization', 'licenses', 'developers', 'contributors', 'mailingLists', 'prerequisites', 'modules', 'scm', 'issueManagement', 'ciManagement',
];

// The element each finding names, when its line holds several.
const preferred: Record<(typeof codes)[number], readonly string[]> = {
  'legacy-staging-host': ['nexusUrl', 'url', 'parent'],
  'distribution-url': ['nexusUrl', 'url', 'id', 'parent'],
  'missing-distribution': [],
  'legacy-staging-id': ['id', 'parent'],
};

export const mavenDistributionFix: FixRule = {
  codes,
  plan(ctx) {
    const edits: FixEdit[] = [];
    const declined: FixDeclined[] = [];
    const maven = ctx.facts.maven;
    if (maven === undefined) return { edits, declined };
    const shadowed = new Set<string>();
    const renamed = new Set<string>();
    const definitions = new Set<string>();
    for (const f of ctx.findings) {
      if (!(codes as readonly string[]).includes(f.code)) continue;
      const decline = (why: string): void => void declined.push(declinedAt(f.code, why, f));
      const module = maven.modules.find((m) => m.file === f.file);
      if (module === undefined || f.line === undefined) {
        decline(`${f.file ?? 'it'} is not a POM of this project: relctl edits only the project's own files. ${f.fix}`);
        continue;
      }
      // A POM the release never deploys needs no distribution of its own: nothing is added or changed there.
      const skipped = neverDeployed(maven, module);
      if (skipped !== undefined) {
        decline(`${skipped}, so it needs no <distributionManagement> and relctl leaves it as it is; if the release does deploy it, write this yourself: ${f.fix}`);
        continue;
      }
      if (module.parentUnresolved === true) {
        decline(`a parent POM of ${module.file} could not be resolved, so its inherited values are unknown: nothing is changed. ${f.fix}`);
        continue;
      }
      const doc = readXml(ctx, module.file);
      if (doc === undefined) {
        // Said with the reason (an encoding relctl does not edit, a file that changed into something
        // else), so the user knows the change is theirs to make by hand.
        const why = ctx.unreadable?.(module.file) ?? `${module.file} no longer parses as XML`;
        decline(`relctl leaves ${module.file} unchanged: ${why}. Make the change by hand: ${f.fix}`);
        continue;
      }
      const path = pathAtLine(doc.root, f.line, preferred[f.code as (typeof codes)[number]]) ?? [];
      const el = path[path.length - 1];
      const repo = path[path.length - 2];
      const inRepository = repo !== undefined && (repo.name === 'repository' || repo.name === 'snapshotRepository') && path[path.length - 3]?.name === 'distributionManagement';
      const staging = maven.stagingApiUrl.replace(/\/+$/, '');
      // nexus-staging-maven-plugin's <nexusUrl> (a retired host, or another host on the nexus-staging route).
      if (el?.name === 'nexusUrl' && (f.code === 'legacy-staging-host' || f.code === 'distribution-url')) {
        const viaProperty = propertyUrlFix(ctx, module, el, 'nexusUrl', `${staging}/`, f.code, f.fix);
        if (viaProperty === undefined) edits.push(replaceValue(doc, el, `${staging}/`, f.code));
        else if ('declined' in viaProperty) declined.push(viaProperty.declined);
        else if (!definitions.has(viaProperty.key)) {
          definitions.add(viaProperty.key);
          edits.push(viaProperty.edit);
        }
      } else if (el !== undefined && inRepository && el.name === 'url' && (f.code === 'legacy-staging-host' || f.code === 'distribution-url')) {
        const kind = repo.name === 'snapshotRepository' ? 'snapshotRepository' : 'repository';
        const value = kind === 'snapshotRepository' ? CENTRAL_SNAPSHOTS_URL : expectedDeployUrl(staging);
        // `${name}` defined in a project POM: its value changes where it is written.
        const viaProperty = propertyUrlFix(ctx, module, el, kind, value, f.code, f.fix);
        if (viaProperty === undefined) edits.push(replaceValue(doc, el, value, f.code));
        else if ('declined' in viaProperty) declined.push(viaProperty.declined);
        else if (!definitions.has(viaProperty.key)) {
          definitions.add(viaProperty.key);
          edits.push(viaProperty.edit);
        }
      } else if (el !== undefined && inRepository && el.name === 'id' && f.code === 'distribution-url') {
        const e = insertAfter(doc, repo, el, [{ name: 'url', text: expectedDeployUrl(staging) }]);
        edits.push(editOf(doc.source, e, f.code, '', oneLine(e.replacement)));
      } else if (el !== undefined && inRepository && el.name === 'id' && f.code === 'legacy-staging-id') {
        const rename = renameServer(ctx, el.text);
        if (!rename.ok) decline(`${rename.why}; the id in ${module.file} and the settings <server> change together or not at all. ${f.fix}`);
        else {
          edits.push(replaceValue(doc, el, NEW_REPOSITORY_ID, f.code));
          // The snapshot repository usually shares the id (one <server>): it follows the release one.
          const sibling = child(child(path[path.length - 3], 'snapshotRepository'), 'id');
          if (sibling !== undefined && sibling.text === el.text && repo.name === 'repository') edits.push(replaceValue(doc, sibling, NEW_REPOSITORY_ID, f.code));
          if (!renamed.has(el.text)) edits.push(...rename.edits.map((e) => ({ ...e, code: f.code })));
          renamed.add(el.text);
        }
      } else if (f.code === 'legacy-staging-host' && readRepository(path) !== undefined) {
        const r = readRepositoryFix(doc, readRepository(path)!, f);
        if ('replacement' in r) edits.push(r);
        else declined.push(r);
      } else if (f.code === 'distribution-url' && f.message.includes('has no <nexusUrl>')) {
        decline(`where the plugin's configuration goes (this POM, its pluginManagement or a profile) is the maintainer's call. ${f.fix}`);
      } else if (f.message.includes('<nexusUrl>')) {
        decline(`the <nexusUrl> is inherited from a parent outside the project; configure nexus-staging-maven-plugin in ${module.file} to override it. ${f.fix}`);
      } else if (el !== undefined && path.length <= 2) {
        // Inherited from outside (reported at the <parent> that leaves the project) or missing
        // (reported at <artifactId> or <project>): a top-level element of the POM. Shadow it there.
        if (shadowed.has(module.file)) continue;
        shadowed.add(module.file);
        const shadow = shadowEdits(ctx, doc, module, f, renamed);
        edits.push(...shadow.edits);
        declined.push(...shadow.declined);
      } else decline(`relctl could not find the element the finding names at ${module.file}:${f.line}. ${f.fix}`);
    }
    return { edits, declined };
  },
};

/**
 * The `<repository>` / `<pluginRepository>` a build reads from (`<repositories>` of the project or
 * of a profile) on the finding's path: never one of `<distributionManagement>`.
 */
function readRepository(path: readonly XmlElement[]): XmlElement | undefined {
  const i = path.findIndex((el, k) => (el.name === 'repository' || el.name === 'pluginRepository') && path[k - 1]?.name === `${el.name === 'repository' ? 'repositories' : 'pluginRepositories'}`);
  return i === -1 ? undefined : path[i];
}

/**
 * A published read repository on a retired host: a snapshot repository (releases off, or the
 * host's snapshots path) moves to Central's snapshots repository, where the portal publishes
 * snapshots now; one serving releases is declined, since Central serves releases anyway and
 * removing a block is a person's call (the build may still need it).
 */
function readRepositoryFix(doc: XmlDoc, repo: XmlElement, f: Finding): FixEdit | FixDeclined {
  const url = child(repo, 'url');
  const releasesOff = child(child(repo, 'releases'), 'enabled')?.text === 'false';
  if (url !== undefined && !url.text.includes('${') && (releasesOff || /\/content\/repositories\/snapshots\/?$/.test(url.text))) return replaceValue(doc, url, CENTRAL_SNAPSHOTS_URL, f.code);
  return declinedAt(f.code, `the <${repo.name}> at a retired host serves releases, which Central serves to every build anyway: remove it from ${doc.source.file} (relctl does not delete a block the build may still rely on). ${f.fix}`, f);
}

function replaceValue(doc: XmlDoc, el: XmlElement, value: string, code: string): FixEdit {
  return editOf(doc.source, replaceText(doc.text, el, value), code, el.text, value);
}

/** A `<distributionManagement>` in `doc` that shadows what the module inherits from outside. */
function shadowEdits(ctx: FixContext, doc: XmlDoc, module: MavenModuleFacts, f: Finding, renamed: Set<string>): FixPlan {
  const maven = ctx.facts.maven!;
  const edits: FixEdit[] = [];
  const declined: FixDeclined[] = [];
  const eff = module.effective;
  const staging = maven.stagingApiUrl.replace(/\/+$/, '');
  // The inherited id is kept (its <server> already exists) unless it is a legacy one that can move with its server.
  const idFor = (id: string | undefined): string => {
    if (id === undefined || id.includes('${')) return NEW_REPOSITORY_ID;
    if (!isLegacyId(id)) return id;
    const rename = renameServer(ctx, id);
    if (!rename.ok) {
      declined.push(declinedAt('legacy-staging-id', `${rename.why}; the inherited id "${id}" is kept in the new <distributionManagement>.`, { file: module.file, line: f.line! }));
      return id;
    }
    if (!renamed.has(id)) edits.push(...rename.edits.map((e) => ({ ...e, code: 'legacy-staging-id' })));
    renamed.add(id);
    return NEW_REPOSITORY_ID;
  };
  const release: NewElement = { name: 'repository', children: [{ name: 'id', text: idFor(eff.repository?.id?.value) }, { name: 'url', text: expectedDeployUrl(staging) }] };
  const snapshotUrl = eff.snapshotRepository?.url?.value;
  const snapshot: NewElement | undefined =
    snapshotUrl !== undefined && legacyHostOf(snapshotUrl) !== undefined
      ? { name: 'snapshotRepository', children: [{ name: 'id', text: idFor(eff.snapshotRepository?.id?.value ?? eff.repository?.id?.value) }, { name: 'url', text: CENTRAL_SNAPSHOTS_URL }] }
      : undefined;
  const project = doc.root;
  const dm = child(project, 'distributionManagement');
  if (dm === undefined) {
    const block: NewElement = { name: 'distributionManagement', children: [release, ...(snapshot === undefined ? [] : [snapshot])] };
    const after = lastOf(project, beforeDistribution);
    const e = after === undefined ? appendLast(doc, project, [block]) : insertAfter(doc, project, after, [block]);
    edits.push(editOf(doc.source, e, f.code, '', renderInline([block])));
    return { edits, declined };
  }
  // A block without (some of) these repositories: the missing ones are added to it.
  const wanted = [child(dm, 'repository') === undefined ? release : undefined, snapshot !== undefined && child(dm, 'snapshotRepository') === undefined ? snapshot : undefined].filter(
    (x): x is NewElement => x !== undefined,
  );
  if (wanted.length === 0) {
    declined.push(declinedAt(f.code, `${module.file} already declares its repositories in <distributionManagement>. ${f.fix}`, { file: module.file, line: f.line! }));
    return { edits, declined };
  }
  const e = insertFirst(doc, dm, wanted);
  edits.push(editOf(doc.source, e, f.code, '', renderInline(wanted)));
  return { edits, declined };
}
