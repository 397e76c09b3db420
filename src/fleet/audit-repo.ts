/**
 * One fleet repository's audit (DESIGN §13): preflight's own audit of the clone, with the fleet's
 * parents read from the fleet, then attribution, verdict, the last release and what `--fix`
 * would edit. Only the small report is kept: the facts (effective models of every module) are
 * dropped when this returns, so a fleet's memory does not grow with its size.
 */
import { EnvironmentError, RelctlError } from '../core/errors.js';
import type { FindingGroup } from '../core/finding-groups.js';
import type { Finding } from '../core/findings.js';
import { auditProject } from '../checks/audit.js';
import type { ProjectFacts } from '../checks/facts.js';
import type { MavenModuleFacts } from '../build-tools/maven/facts.js';
import { ownChanges, type FileChange } from './fix/own-edits.js';
import type { CommandContext } from '../io/command-context.js';
import { loadConfig } from '../io/config-file.js';
import type { SettingKey } from '../core/config/settings.js';
import { attribute, verdictOf } from './attribution.js';
import type { FleetParents } from './fleet-parents.js';
import type { FleetPomIndex } from './pom-index.js';
import { lastReleaseOf } from './last-release.js';
import type { FleetFinding, FleetParent, FleetRepositoryReport } from './report-types.js';

/** The groups a fleet audit judges: the repository's; the portal and key servers are the machine's. */
export const fleetGroups: ReadonlySet<FindingGroup> = new Set<FindingGroup>(['descriptors', 'credentials', 'repository']);

export interface RepoAuditInput {
  name: string;
  dir: string;
  url: string;
  branch: string;
  head: string;
  offline: boolean;
  index: FleetPomIndex;
  parents: FleetParents;
  /** The fleet command's setting flags (they win over each repository's relctl.config.json). */
  flags: Partial<Record<SettingKey, unknown>>;
}

export interface RepoAudit {
  report: FleetRepositoryReport;
  /** The machine's findings seen in this repository (the caller lists each once). */
  environment: Finding[];
  /** The repository's own context and facts, for what runs right after the audit (fix); dropped after. */
  ctx: CommandContext;
  facts?: ProjectFacts;
  /** What `preflight --fix` would change for the repository's own findings. */
  changes?: FileChange[];
  /** Files those changes would edit but do not (own-edits.ts): findings of `fleet fix`. */
  declined?: FleetFinding[];
}

/** The context of one clone: its own relctl.config.json, under the fleet command's setting flags. */
export async function repositoryContext(fleet: CommandContext, dir: string, flags: Partial<Record<SettingKey, unknown>>): Promise<CommandContext> {
  const { config, sources } = await loadConfig(dir, flags, fleet.env);
  return { ...fleet, cwd: dir, config, configSources: sources };
}

export async function auditRepository(fleet: CommandContext, input: RepoAuditInput): Promise<RepoAudit> {
  const ctx = await repositoryContext(fleet, input.dir, input.flags);
  const base = { name: input.name, url: input.url, branch: input.branch, head: input.head };
  // Set by fix --open-prs and rehearse; last, in the order of the contract (report-types.ts), as every report's keys are.
  const later = { pullRequest: null, rehearsal: null };
  let audit;
  try {
    audit = await auditProject(ctx, { offline: input.offline, groups: fleetGroups, preferredParents: input.parents });
  } catch (error) {
    if (error instanceof RelctlError && error.code === 'no-build') {
      const lastRelease = await lastReleaseOf(ctx, input.dir, undefined, input.offline);
      return { report: { ...base, build: 'none', route: 'none', parents: [], verdict: 'not-published', blocking: [], fixIn: [], findings: [], fixes: [], lastRelease, ...later }, environment: [], ctx };
    }
    throw error;
  }
  const { facts, report } = audit;
  // A parent the public repository did not answer for is no verdict (preflight exits 3 on it):
  // without its values the checks it feeds were skipped, and the repository would read `ready`.
  if (facts.unreachable !== undefined && facts.unreachable.length > 0) {
    throw new EnvironmentError(facts.unreachable.join('\n'), { kind: 'service-unreachable', fix: 'Check the network and --public-repo-url, then run again (--offline audits with only the parents relctl has already cached).' });
  }
  const top = facts.maven?.modules.find((m) => m.topLevel);
  const attributed = attribute(withFleetParents(report.findings, facts, input.index), {
    exits: exitLines(facts),
    fleetAncestorOf: (module) => fleetAncestor(moduleOf(facts, module) ?? top, input.index, input.name),
  });
  const lastRelease = await lastReleaseOf(ctx, input.dir, facts.release, input.offline, facts.git?.tags);
  const publishes = publishesSomething(facts, lastRelease?.published === true);
  const verdict = verdictOf(attributed, publishes);
  const routeKind = facts.route?.kind ?? 'unknown';
  const { changes, declined } = publishes ? ownChanges(ctx, facts, attributed.findings) : { changes: [], declined: [] };
  return {
    report: {
      ...base,
      build: facts.buildTool === 'gradle' ? 'gradle' : 'maven',
      route: publishes ? routeKind : 'none',
      parents: parentChain(top, input.index),
      verdict,
      blocking: publishes ? attributed.blocking : [],
      fixIn: publishes ? attributed.fixIn : [],
      findings: attributed.findings,
      fixes: fixesOf(changes),
      lastRelease,
      ...later,
    },
    environment: attributed.environment,
    ctx,
    facts,
    changes,
    declined,
  };
}

/** The edits as the report lists them: file, line, code, once each. */
function fixesOf(changes: readonly FileChange[]): FleetRepositoryReport['fixes'] {
  const seen = new Set<string>();
  const fixes: FleetRepositoryReport['fixes'] = [];
  for (const e of changes.flatMap((c) => c.edits)) {
    const key = `${e.file}\u0000${e.line}\u0000${e.code}`;
    if (seen.has(key)) continue;
    seen.add(key);
    fixes.push({ file: e.file, line: e.line, code: e.code });
  }
  return fixes;
}

/**
 * A parent the fleet builds but has in no tag and not at its tip is not a gap in relctl's view
 * (preflight's warning): the child names a version that was never released, so it cannot be
 * released itself until it moves to one. An error of the child's own.
 */
function withFleetParents(findings: readonly Finding[], facts: ProjectFacts, index: FleetPomIndex): Finding[] {
  return findings.map((f) => {
    if (f.code !== 'parent-unresolved') return f;
    const missing = moduleOf(facts, f.module)?.missingParent ?? facts.maven?.modules.find((m) => m.missingParent !== undefined)?.missingParent;
    const [g, a, v] = (missing ?? '').split(':');
    const built = index.builder(g, a);
    if (built === undefined) return f;
    return {
      ...f,
      severity: 'error' as const,
      message: `The parent ${missing} is built by the fleet repository ${built.repo}, which has no tag of ${v} and is at ${built.version ?? 'another version'} on its default branch; nor is ${v} in the local or public repository. Nothing can be released on a parent version that was never released.`,
      fix: `Move <parent><version> in ${f.file ?? 'pom.xml'} to a released version of ${built.groupId}:${built.artifactId} (a tag of ${built.repo}), or release ${v} from ${built.repo} first.`,
    };
  });
}

/** `file:line` of every `<parent>` through which a module inherits from outside the repository. */
function exitLines(facts: ProjectFacts): Set<string> {
  return new Set((facts.maven?.modules ?? []).flatMap((m) => (m.exit === undefined ? [] : [`${m.exit.file}:${m.exit.line}`])));
}

function moduleOf(facts: ProjectFacts, coords: string | undefined): MavenModuleFacts | undefined {
  return coords === undefined ? undefined : facts.maven?.modules.find((m) => m.effective.coords === coords);
}

/** A module's ancestors outside the repository, nearest first (the unresolved one last, when the chain stopped). */
function outsideAncestors(module: MavenModuleFacts | undefined): string[] {
  if (module === undefined) return [];
  const ids = module.chain.slice(1).filter((link) => link.file === undefined).map((link) => link.id);
  if (module.missingParent !== undefined && !ids.includes(module.missingParent)) ids.push(module.missingParent);
  if (ids.length === 0 && module.raw.parent !== undefined && module.chain.length <= 1) {
    const p = module.raw.parent;
    ids.push(`${p.groupId ?? '?'}:${p.artifactId ?? '?'}:${p.version ?? '?'}`);
  }
  return ids;
}

function fleetAncestor(module: MavenModuleFacts | undefined, index: FleetPomIndex, self: string): string | undefined {
  for (const id of outsideAncestors(module)) {
    const [g, a] = id.split(':');
    const repo = index.builder(g, a)?.repo;
    if (repo !== undefined && repo !== self) return repo;
  }
  return undefined;
}

function parentChain(top: MavenModuleFacts | undefined, index: FleetPomIndex): FleetParent[] {
  return outsideAncestors(top).map((coordinates) => {
    const [g, a] = coordinates.split(':');
    return { coordinates, repository: index.builder(g, a)?.repo ?? null };
  });
}

/**
 * Whether the repository publishes to Maven Central at all: a route preflight recognised, or the
 * signs of a release that lost its route (a signing, staging, publishing or deploy plugin, a CI
 * deploy, a last release that is on the public repository). Without any, it is an assembly, a
 * site, a tool. maven-release-plugin alone is no sign: it tags and bumps versions (uPortal's
 * esup-filemanager), and a Central distribution added to such a repository would be wrong.
 */
function publishesSomething(facts: ProjectFacts, lastPublished: boolean): boolean {
  const kind = facts.route?.kind ?? 'unknown';
  if (kind !== 'unknown' || lastPublished) return true;
  const maven = facts.maven;
  if (maven === undefined) return false;
  if (maven.modules.some((m) => m.parentUnresolved === true)) return true;
  if ((maven.ciDeploys ?? []).length > 0) return true;
  const releasing = /^(maven-gpg-plugin|nexus-staging-maven-plugin|central-publishing-maven-plugin|maven-deploy-plugin)$/;
  return maven.modules.some((m) => m.effective.plugins.some((p) => releasing.test(p.artifactId ?? '')));
}
