/**
 * Which settings file a `<server>` the fix adds goes to (DESIGN §4, Fixes: "only in files the
 * release reads"). The release id's goes where the release reads its settings: a project file the
 * CI passes with `-s` when the CI makes the release, else the file preflight used
 * (~/.m2/settings.xml). The snapshot id's goes where snapshots deploy: that CI file when the CI
 * deploys only the checked-out snapshot (inspektr, person-directory: `mvn deploy --settings
 * .github/workflows/settings.xml` on every push, releases from a maintainer's machine). Pure.
 */
import path from 'node:path';
import type { MavenSettingsFacts } from '../../build-tools/maven/facts.js';
import { child, type XmlElement } from '../../core/pom/xml.js';
import type { FixContext } from './types.js';

/** A settings file as the fix names it (project-relative when in the project). */
export interface SettingsTarget {
  name: string;
  facts: MavenSettingsFacts;
  /** Set when it is a project file the CI passes with `-s`: the script that passes it. */
  ci?: string;
  /** Set when that CI deploys only snapshots with it (and the release reads another file). */
  snapshotsOnly?: true;
}

/** The one project settings file the CI passes with `-s` when nothing else names one, with its name. */
function ciFile(ctx: FixContext): SettingsTarget | undefined {
  const settings = ctx.facts.maven?.settings;
  const alts = settings?.alternatives ?? [];
  const root = ctx.facts.root;
  if (settings === undefined || settings.via !== undefined || alts.length !== 1 || !alts[0]!.file.startsWith(`${root}${path.sep}`)) return undefined;
  const alt = alts[0]!;
  return { name: path.relative(root, alt.file).split(path.sep).join('/'), facts: alt, ...(alt.via === undefined ? {} : { ci: alt.via }) };
}

/**
 * True when the CI deploys only snapshots with `file`: its scripts deploy what they check out and
 * make no release, the project's version is a -SNAPSHOT, and the build has a snapshot repository
 * for those deploys to go to.
 */
function snapshotsOnly(ctx: FixContext, file: MavenSettingsFacts): boolean {
  const top = ctx.facts.maven?.modules[0]?.effective;
  const version = top?.version?.trim() ?? '';
  return file.deploysAsCheckedOut === true && !version.includes('${') && version.endsWith('-SNAPSHOT') && top?.snapshotRepository?.id !== undefined;
}

/**
 * The settings file the release reads: the one preflight used when `-s` in `.mvn/maven.config` or
 * MAVEN_ARGS names it (or none is passed anywhere); when the CI scripts pass one project file with
 * `-s` (and nothing else names one), that file, unless the CI only deploys snapshots with it.
 * Several different CI files: the one preflight used (which one is a person's call).
 */
export function releaseSettings(ctx: FixContext): SettingsTarget | undefined {
  const maven = ctx.facts.maven;
  if (maven === undefined) return undefined;
  const ci = ciFile(ctx);
  return ci !== undefined && !snapshotsOnly(ctx, ci.facts) ? ci : { name: maven.settings.file, facts: maven.settings };
}

/** The settings file snapshots deploy with: the CI file when the CI deploys only snapshots, else the release's. */
export function snapshotSettings(ctx: FixContext): SettingsTarget | undefined {
  const ci = ciFile(ctx);
  return ci !== undefined && snapshotsOnly(ctx, ci.facts) ? { ...ci, snapshotsOnly: true } : releaseSettings(ctx);
}

const envName = (el: XmlElement | undefined): string | undefined => /^\$\{env\.([A-Za-z_]\w*)\}$/.exec(el?.text.trim() ?? '')?.[1];

/**
 * The variables a new `<server>` in `target` takes its credentials from: in a CI file, those of a
 * server already there whose variables the CI's scripts set (the workflow's secrets), unless the
 * user chose the names; else the names of the options (CENTRAL_TOKEN_USERNAME/_PASSWORD).
 */
export function serverVariables(ctx: FixContext, target: SettingsTarget, servers: readonly XmlElement[]): { username: string; password: string } {
  const chosen = { username: ctx.options.usernameVariable, password: ctx.options.passwordVariable };
  const exports = new Set(target.facts.exports ?? []);
  if (target.ci === undefined || ctx.options.variablesChosen === true || exports.size === 0) return chosen;
  for (const s of servers) {
    const [username, password] = [envName(child(s, 'username')), envName(child(s, 'password'))];
    if (username !== undefined && password !== undefined && exports.has(username) && exports.has(password)) return { username, password };
  }
  return chosen;
}
