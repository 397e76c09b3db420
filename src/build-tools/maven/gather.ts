import { descriptorText } from '../../io/descriptor.js';
import path from 'node:path';
import type { Finding } from '../../core/findings.js';
import { deploySkips, effectivePom, parentId, resolveChain, type ChainLink, type ChainProblem, type EffectivePom, type ParentRef, type RawPom } from '../../core/pom/index.js';
import type { MavenFacts, MavenModuleFacts } from './facts.js';
import { PomLoader, type LoadedPom, type PreferredParents } from './load.js';
import { folderOf, inFolder } from '../../core/abs-path.js';
import { statOf } from '../../io/stat-of.js';
import { rawCoords, walkReactor } from './reactor-walk.js';
import { ciDeployCommands, ciScriptTexts, ciSettingsFiles } from './ci-settings.js';
import { loadMavenSettings, resolveLocalRepo, settingsFileFor } from './settings.js';

export interface GatherMavenOptions {
  settingsFile?: string;
  localRepo?: string;
  env: Record<string, string | undefined>;
  home: string;
  /** The configured staging API URL (stored in the facts for the distribution-url check). */
  stagingApiUrl?: string;
  /** Parents found nowhere else: relctl's parent cache (and, online, the public repository). */
  parentFallback?: (ref: ParentRef) => Promise<string | undefined>;
  /** Online: the public repository the fallback asks (named in parent-unresolved). */
  publicRepoUrl?: string;
  /** Parents read before the local repository: a fleet's own (DESIGN §13). */
  preferredParents?: PreferredParents;
}

export interface MavenReleaseFacts {
  currentVersion?: string;
  versionFile?: string;
  versionLine?: number;
  groupId?: string;
  artifactId?: string;
  /** maven-release-plugin `tagNameFormat` (`v@{project.version}`), when configured. */
  tagTemplate?: string;
  /** For --verbose: where the tag's artifactId comes from. */
  artifactIdFrom?: string;
}

export interface GatheredMaven {
  facts: MavenFacts;
  findings: Finding[];
  release: MavenReleaseFacts;
}

/** A war module's web content, relative to its POM's folder. */
const webappDir = path.join('src', 'main', 'webapp');

const defaultStagingApiUrl = 'https://ossrh-staging-api.central.sonatype.com';

/**
 * Reads the whole reactor once: every module POM, every parent (relativePath, then the local
 * repository) and the settings file; computes each module's effective model. Problems with the
 * files themselves come back as findings (xml-malformed, module-missing, parent-unresolved).
 */
export async function gatherMavenFacts(rootDir: string, options: GatherMavenOptions): Promise<GatheredMaven> {
  const root = new PomLoader(rootDir, '').real(path.resolve(rootDir));
  const findings: Finding[] = [];
  const seenFindings = new Set<string>();
  const report = (f: Finding): void => {
    const key = `${f.code}|${f.file ?? ''}|${f.line ?? ''}|${f.message}`;
    if (seenFindings.has(key)) return;
    seenFindings.add(key);
    findings.push(f);
  };

  // Read once: the -s files the release job passes, and its deploy commands, both come from them.
  const ciScripts = ciScriptTexts(root);
  const mavenConfig = readMavenConfig(root);
  const chosen = settingsFileFor({ ...(options.settingsFile === undefined ? {} : { settingsFile: options.settingsFile }), root, env: options.env, home: options.home, ...(mavenConfig === undefined ? {} : { mavenConfig }) });
  const settings = await loadMavenSettings(chosen.file, { env: options.env, home: options.home });
  if (chosen.via !== undefined) settings.facts.via = chosen.via;
  if (options.settingsFile === undefined && chosen.via === undefined) {
    // The release job may run `mvn -s <project file>`: credentials there count too.
    for (const ci of ciSettingsFiles(root, ciScripts)) {
      const loaded = await loadMavenSettings(ci.file, { env: options.env, home: options.home });
      if (loaded.finding !== undefined) report(loaded.finding);
      (settings.facts.alternatives ??= []).push({ ...loaded.facts, via: ci.via, ...(ci.deploysAsCheckedOut ? { deploysAsCheckedOut: true } : {}), exports: ci.exports });
    }
  }
  if (settings.finding !== undefined) report(settings.finding);
  const localRepo = resolveLocalRepo({
    ...(options.localRepo === undefined ? {} : { localRepo: options.localRepo }),
    ...(settings.settings === undefined ? {} : { settings: settings.settings }),
    home: options.home,
  });
  const loader = new PomLoader(root, localRepo, options.parentFallback, options.preferredParents);
  // CI-friendly versions often come from .mvn/maven.config (`-Drevision=1.2.0-SNAPSHOT`); the
  // settings' active profiles come first, as Maven lets -D win over them.
  const userProperties = new Map([...(settings.settings?.properties ?? []), ...mavenConfigProperties(mavenConfig)]);

  const entries = walkReactor(root, loader, report);
  const usable = entries.filter((e): e is LoadedPom & { link: ChainLink; file: string } => e.link !== undefined && e.file !== undefined);

  // Parents are loaded asynchronously first; the chain itself is then resolved by the pure core.
  const parentOf = new Map<RawPom, LoadedPom | undefined>();
  const pending = usable.map((e) => loadParents(e, loader, parentOf)).filter((p) => p !== undefined);
  if (pending.length > 0) await Promise.all(pending);
  const lookup = (_ref: unknown, child: ChainLink): ChainLink | undefined => parentOf.get(child.pom)?.link;

  const modules: MavenModuleFacts[] = [];
  const effectiveOf = new Map<RawPom, EffectivePom>();
  const broken: { problem: ChainProblem; module: MavenModuleFacts }[] = [];
  const webapp = usable.map((e) => statOf(inFolder(folderOf(e.abs), webappDir))?.isDirectory() === true);
  const effectiveOptions = { env: options.env, ...(userProperties.size === 0 ? {} : { userProperties }) };
  usable.forEach((entry, index) => {
    const { chain, problem } = resolveChain(entry.link, lookup);
    const effective = effectivePom(chain, effectiveOptions);
    const lastInProject = chain.findLast((l) => l.identity.file !== undefined)!;
    const leaves = lastInProject !== chain[chain.length - 1] || problem !== undefined;
    const dir = path.posix.dirname(entry.file);
    const module: MavenModuleFacts = {
      file: entry.file,
      dir: dir === '.' ? '' : dir,
      topLevel: entry.file === 'pom.xml',
      raw: entry.link.pom,
      effective,
      chain: chain.map((l) => l.identity),
      parentInProject: chain[1]?.identity.file !== undefined,
      hasWebapp: webapp[index] === true,
      parentUnresolved: problem?.kind === 'unresolved',
    };
    if (problem?.kind === 'unresolved') module.missingParent = parentId(problem.ref);
    const skips = deploySkips(effective);
    if (skips.deploy || skips.publishing) module.skips = skips;
    const exitRef = lastInProject.pom.parent;
    if (leaves && exitRef !== undefined) {
      module.exit = { file: lastInProject.identity.file!, line: exitRef.line, module: rawCoords(lastInProject.pom) };
    }
    modules.push(module);
    effectiveOf.set(entry.link.pom, effective);
    if (problem !== undefined) broken.push({ problem, module });
  });
  // Reported once every module's effective model is known: the POM whose parent is missing is named
  // by its interpolated id (`${revision}` written, 1.2.0-SNAPSHOT meant), the same for all its modules.
  for (const { problem, module } of broken) {
    const at = problem.child.identity.file === undefined ? module.exit : { file: problem.child.identity.file, line: problem.ref.line, module: rawCoords(problem.child.pom) };
    const wanted = parentId(problem.ref);
    const childEff = effectiveOf.get(problem.child.pom);
    const childId = childEff?.version === undefined ? problem.child.identity.id : `${childEff.coords}:${childEff.version}`;
    const finding: Finding =
      problem.kind === 'cycle'
        ? {
            code: 'parent-unresolved',
            severity: 'warning',
            message: `The parent ${wanted} of ${childId} leads back into its own inheritance chain (a cycle); inherited values past it are ignored.`,
            fix: 'Point <parent> at the real parent POM so that no POM is its own ancestor.',
          }
        : {
            code: 'parent-unresolved',
            severity: 'warning',
            message: `The parent ${wanted} of ${childId} is neither in the project (relativePath), nor in the local repository ${localRepo}${options.publicRepoUrl === undefined ? '' : `, nor in the public repository ${options.publicRepoUrl}`}, so the values it would pass on are unknown; ${skippedChecks} were not reported for this module.`,
            fix: options.publicRepoUrl === undefined
              ? `Run preflight without --offline (relctl then fetches the parent from the public repository into its own cache), install the parent into the local repository, or fix <parent>/<relativePath> in ${at?.file ?? 'the POM'}.`
              : `Check the parent's coordinates, install the parent into the local repository, or fix <parent>/<relativePath> in ${at?.file ?? 'the POM'}.`,
          };
    if (at !== undefined) Object.assign(finding, { file: at.file, line: at.line, module: at.module });
    report(finding);
  }

  // No release facts when the top-level POM itself is unusable (an xml-malformed finding says why).
  const top = modules.find((m) => m.topLevel);
  const release: MavenReleaseFacts = {};
  if (top !== undefined) {
    if (top.effective.version !== undefined) release.currentVersion = top.effective.version;
    release.versionFile = top.file;
    const line = top.raw.version?.line ?? top.raw.parent?.line;
    if (line !== undefined) release.versionLine = line;
    if (top.effective.groupId !== undefined) release.groupId = top.effective.groupId;
    if (top.effective.artifactId !== undefined) {
      release.artifactId = top.effective.artifactId;
      release.artifactIdFrom = `the artifactId of ${top.file}`;
    }
    const releasePlugin = top.effective.plugins.find((p) => p.artifactId === 'maven-release-plugin' && p.config.some((c) => c.path === 'tagNameFormat'));
    const format = releasePlugin?.config.find((c) => c.path === 'tagNameFormat')?.value;
    if (format !== undefined && format !== '') release.tagTemplate = format;
  }
  const facts: MavenFacts = {
    stagingApiUrl: (options.stagingApiUrl ?? defaultStagingApiUrl).replace(/\/+$/, ''),
    modules,
    settings: settings.facts,
    localRepo,
    tokenFromEnv: (options.env.RELCTL_TOKEN_USERNAME ?? '') !== '' && (options.env.RELCTL_TOKEN_PASSWORD ?? '') !== '',
  };
  const deploys = ciDeployCommands(ciScripts);
  if (deploys.length > 0) facts.ciDeploys = deploys;
  return { facts, findings, release };
}

/** `.mvn/maven.config`: the arguments Maven adds to every build of this project. */
function readMavenConfig(root: string): string | undefined {
  // A descriptor like the POMs: a FIFO or a device by that name is skipped, never waited on.
  return descriptorText(path.join(root, '.mvn', 'maven.config'), 1024 * 1024);
}

/** `-Dname=value` arguments of `.mvn/maven.config`, as Maven passes them to every build. */
function mavenConfigProperties(text: string | undefined): Map<string, string> {
  const props = new Map<string, string>();
  if (text === undefined) return props;
  for (const m of text.matchAll(/(?:^|\s)-D([^\s=]+)=("[^"]*"|\S*)/g)) props.set(m[1]!, m[2]!.replace(/^"|"$/g, ''));
  return props;
}

/** The checks that depend on inherited values and stay quiet past an unresolved parent. */
const skippedChecks =
  'missing-developers, missing-distribution, missing-pom-metadata (all but <name>), unresolved-property, plugin-version-missing, published-repositories and packaging-mismatch (without a declared <packaging>)';

/**
 * Follows one chain of parents, loading each once; stops at a POM already on the path (cycle).
 * Synchronous while the parents are on disk; a promise only once the fallback must be asked.
 */
function loadParents(from: LoadedPom | undefined, loader: PomLoader, parentOf: Map<RawPom, LoadedPom | undefined>, onPath: RawPom[] = []): Promise<void> | undefined {
  let current = from;
  // A short array, not a Set: most paths are one or two parents long, and there is one per module.
  while (current?.link?.pom.parent !== undefined && !onPath.includes(current.link.pom) && onPath.length < 64) {
    const pom: RawPom = current.link.pom;
    onPath.push(pom);
    if (!parentOf.has(pom)) {
      const found = loader.parentOnDisk(current, pom.parent!);
      if (found.fallback) {
        return loader.parentFromFallback(pom.parent!).then((parent) => {
          parentOf.set(pom, parent);
          return loadParents(parentOf.get(pom), loader, parentOf, onPath);
        });
      }
      parentOf.set(pom, found.parent);
    }
    current = parentOf.get(pom);
  }
  return undefined;
}

type Report = (f: Finding) => void;
