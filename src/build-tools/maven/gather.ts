import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Finding } from '../../core/findings.js';
import { effectivePom, parentId, resolveChain, type ChainLink, type ParentRef, type RawPom } from '../../core/pom/index.js';
import type { MavenFacts, MavenModuleFacts } from './facts.js';
import { PomLoader, relativeToRoot, statOf, type LoadedPom } from './load.js';
import { defaultSettingsFile, loadMavenSettings, resolveLocalRepo } from './settings.js';

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
}

export interface MavenReleaseFacts {
  currentVersion?: string;
  versionFile?: string;
  versionLine?: number;
  groupId?: string;
  artifactId?: string;
  /** maven-release-plugin `tagNameFormat` (`v@{project.version}`), when configured. */
  tagTemplate?: string;
}

export interface GatheredMaven {
  facts: MavenFacts;
  findings: Finding[];
  release: MavenReleaseFacts;
}

const defaultStagingApiUrl = 'https://ossrh-staging-api.central.sonatype.com';

/** `groupId:artifactId` as written (groupId falls back to the parent's). */
function rawCoords(pom: RawPom): string {
  return `${pom.groupId?.value ?? pom.parent?.groupId ?? '?'}:${pom.artifactId?.value ?? '?'}`;
}

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

  const settingsFile = options.settingsFile === undefined ? defaultSettingsFile(options.home) : path.resolve(options.settingsFile);
  const settings = await loadMavenSettings(settingsFile, { env: options.env, home: options.home });
  if (settings.finding !== undefined) report(settings.finding);
  const localRepo = resolveLocalRepo({
    ...(options.localRepo === undefined ? {} : { localRepo: options.localRepo }),
    ...(settings.settings === undefined ? {} : { settings: settings.settings }),
    home: options.home,
  });
  const loader = new PomLoader(root, localRepo, options.parentFallback);
  // CI-friendly versions often come from .mvn/maven.config (`-Drevision=1.2.0-SNAPSHOT`).
  const userProperties = mavenConfigProperties(root);

  const entries = await walkReactor(root, loader, report);
  const usable = entries.filter((e): e is LoadedPom & { link: ChainLink; file: string } => e.link !== undefined && e.file !== undefined);

  // Parents are loaded asynchronously first; the chain itself is then resolved by the pure core.
  const parentOf = new Map<RawPom, LoadedPom | undefined>();
  await Promise.all(usable.map((e) => loadParents(e, loader, parentOf)));
  const lookup = (_ref: unknown, child: ChainLink): ChainLink | undefined => parentOf.get(child.pom)?.link;

  const modules: MavenModuleFacts[] = [];
  const webapp = usable.map((e) => statOf(path.join(path.dirname(e.abs), 'src', 'main', 'webapp'))?.isDirectory() === true);
  usable.forEach((entry, index) => {
    const { chain, problem } = resolveChain(entry.link, lookup);
    const effective = effectivePom(chain, { env: options.env, ...(userProperties.size === 0 ? {} : { userProperties }) });
    const lastInProject = [...chain].reverse().find((l) => l.identity.file !== undefined)!;
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
    const exitRef = lastInProject.pom.parent;
    if (leaves && exitRef !== undefined) {
      module.exit = { file: lastInProject.identity.file!, line: exitRef.line, module: rawCoords(lastInProject.pom) };
    }
    modules.push(module);
    if (problem !== undefined) {
      const at = problem.child.identity.file === undefined ? module.exit : { file: problem.child.identity.file, line: problem.ref.line, module: rawCoords(problem.child.pom) };
      const wanted = parentId(problem.ref);
      const finding: Finding =
        problem.kind === 'cycle'
          ? {
              code: 'parent-unresolved',
              severity: 'warning',
              message: `The parent ${wanted} of ${problem.child.identity.id} leads back into its own inheritance chain (a cycle); inherited values past it are ignored.`,
              fix: 'Point <parent> at the real parent POM so that no POM is its own ancestor.',
            }
          : {
              code: 'parent-unresolved',
              severity: 'warning',
              message: `The parent ${wanted} of ${problem.child.identity.id} is neither in the project (relativePath), nor in the local repository ${localRepo}${options.publicRepoUrl === undefined ? '' : `, nor in the public repository ${options.publicRepoUrl}`}, so the values it would pass on are unknown; ${skippedChecks} were not reported for this module.`,
              fix: options.publicRepoUrl === undefined
                ? `Run preflight without --offline (relctl then fetches the parent from the public repository into its own cache), install the parent into the local repository, or fix <parent>/<relativePath> in ${at?.file ?? 'the POM'}.`
                : `Check the parent's coordinates, install the parent into the local repository, or fix <parent>/<relativePath> in ${at?.file ?? 'the POM'}.`,
            };
      if (at !== undefined) Object.assign(finding, { file: at.file, line: at.line, module: at.module });
      report(finding);
    }
  });

  // No release facts when the top-level POM itself is unusable (an xml-malformed finding says why).
  const top = modules.find((m) => m.topLevel);
  const release: MavenReleaseFacts = {};
  if (top !== undefined) {
    if (top.effective.version !== undefined) release.currentVersion = top.effective.version;
    release.versionFile = top.file;
    const line = top.raw.version?.line ?? top.raw.parent?.line;
    if (line !== undefined) release.versionLine = line;
    if (top.effective.groupId !== undefined) release.groupId = top.effective.groupId;
    if (top.effective.artifactId !== undefined) release.artifactId = top.effective.artifactId;
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
  return { facts, findings, release };
}

/** `-Dname=value` arguments of `.mvn/maven.config`, as Maven passes them to every build. */
function mavenConfigProperties(root: string): Map<string, string> {
  const props = new Map<string, string>();
  let text: string;
  try {
    text = readFileSync(path.join(root, '.mvn', 'maven.config'), 'utf8');
  } catch {
    return props;
  }
  for (const m of text.matchAll(/(?:^|\s)-D([^\s=]+)=("[^"]*"|\S*)/g)) props.set(m[1]!, m[2]!.replace(/^"|"$/g, ''));
  return props;
}

/** The checks that depend on inherited values and stay quiet past an unresolved parent. */
const skippedChecks =
  'missing-developers, missing-distribution, missing-pom-metadata (all but <name>), unresolved-property and packaging-mismatch (without a declared <packaging>)';

/** Follows one chain of parents, loading each once; stops at a POM already on the path (cycle). */
async function loadParents(start: LoadedPom, loader: PomLoader, parentOf: Map<RawPom, LoadedPom | undefined>): Promise<void> {
  const onPath = new Set<RawPom>();
  let current: LoadedPom | undefined = start;
  while (current?.link?.pom.parent !== undefined && !onPath.has(current.link.pom) && onPath.size < 64) {
    const pom: RawPom = current.link.pom;
    onPath.add(pom);
    if (!parentOf.has(pom)) parentOf.set(pom, await loader.parentOf(current, pom.parent!));
    current = parentOf.get(pom);
  }
}

type Report = (f: Finding) => void;

/**
 * Walks `<modules>` from the top-level POM. Each POM is visited once (a module listed twice is
 * walked once); a module that points back at one of its aggregators, or outside the project, is
 * reported instead of followed.
 */
async function walkReactor(root: string, loader: PomLoader, report: Report): Promise<LoadedPom[]> {
  const visited = new Set<string>();
  const topAbs = path.join(root, 'pom.xml');
  visited.add(topAbs);

  const walk = async (abs: string, aggregators: readonly string[]): Promise<LoadedPom[]> => {
    const loaded = await loader.load(abs, 'project');
    if (loaded.link === undefined) {
      const p = loaded.problem;
      if (p !== undefined && abs === topAbs) {
        const finding: Finding = {
          code: 'xml-malformed',
          severity: 'error',
          message: `pom.xml cannot be used: ${p.message}.`,
          file: 'pom.xml',
          fix: 'Make pom.xml a well-formed Maven POM (`mvn -q validate` shows the same error).',
        };
        if (p.line !== undefined) finding.line = p.line;
        report(finding);
      }
      return [loaded];
    }
    const pom = loaded.link.pom;
    const file = loaded.file ?? 'pom.xml';
    const owner = rawCoords(pom);
    const chainHere = [...aggregators, abs];
    const jobs = pom.modules.map(async (m): Promise<LoadedPom[]> => {
      const missing = (why: string, fix: string): LoadedPom[] => {
        report({ code: 'module-missing', severity: 'error', message: `The module "${m.value}" listed in ${file} ${why}.`, file, line: m.line, module: owner, fix });
        return [];
      };
      let target = path.resolve(path.dirname(abs), m.value);
      if (relativeToRoot(root, target) === undefined) {
        return missing('points outside the project folder, so it is not part of this release', 'List only modules inside the project folder, or run relctl from the folder that contains them all.');
      }
      const pomFile = loader.moduleFile(target);
      if (pomFile === undefined) return missing('does not exist', `Create ${m.value}/pom.xml or remove the <module> entry.`);
      target = pomFile;
      if (relativeToRoot(root, target) === undefined) {
        return missing('resolves (through a link) outside the project folder', 'Replace the link with the module folder itself.');
      }
      if (chainHere.includes(target)) {
        return missing('points back at an aggregator that lists it (a module cycle)', 'Remove the <module> entry that points back up the tree.');
      }
      if (visited.has(target)) return []; // listed twice: walked once
      visited.add(target);
      const child = await walk(target, chainHere);
      const first = child[0];
      if (first?.problem !== undefined) {
        const p = first.problem;
        if (p.kind === 'missing') return missing(`has no POM (${relativeToRoot(root, target)} does not exist)`, `Create ${m.value}/pom.xml or remove the <module> entry.`);
        if (p.kind === 'not-a-file') return missing(`has no POM (${relativeToRoot(root, target)} is a directory, not a file)`, `Replace ${relativeToRoot(root, target)} with the module's POM file.`);
        const finding: Finding = {
          code: 'xml-malformed',
          severity: 'error',
          message: `${first.file ?? target} cannot be parsed: ${p.message}.`,
          file: first.file ?? target,
          fix: 'Correct the XML at the line shown (`mvn -q validate` reports the same error).',
        };
        if (p.line !== undefined) finding.line = p.line;
        report(finding);
      }
      return child;
    });
    const nested = await Promise.all(jobs);
    return [loaded, ...nested.flat()];
  };
  return walk(topAbs, []);
}
