/**
 * Gradle `legacy-staging-host` / `distribution-url` (DESIGN §4, Fixes): the URL changes where it
 * is written, at the file and line the finding names: a string literal in a publishing repository
 * (`url = uri("...")`, `url "..."`), a gradle-nexus `nexusUrl` / `snapshotRepositoryUrl`, a
 * nexus-staging `serverUrl`, a JReleaser nexus2 `url` / `snapshotUrl`, or the vanniktech host
 * (`SONATYPE_HOST=S01` in gradle.properties, `SonatypeHost.S01` in the script → CENTRAL_PORTAL).
 * A URL that comes from a variable, a property or an interpolated string, or a plugin's default,
 * is left alone: the finding stays, and the plan says why. A gradle-nexus repository whose
 * nexusUrl is fixed also gets the snapshot URL when none is written (the default is retired too).
 */
import type { Finding } from '../../core/findings.js';
import type { FixDeclined, FixEdit, FixPlan, FixSource } from '../../core/fix/types.js';
import { tokenize } from '../../core/gradle/lexer.js';
import type { GradleRepositoryFact } from '../../build-tools/gradle/facts.js';
import { CENTRAL_SNAPSHOTS_URL, expectedDeployUrl } from '../maven-support.js';
import type { FixContext, FixRule } from './types.js';
import { declined, inProject, insertEdit, replaceEdit } from './edits.js';
import { vanniktechHostFix } from './vanniktech-host.js';

const codes = ['legacy-staging-host', 'distribution-url'] as const;

/** What the checks accept for this repository (gradle-repositories.ts gives the same advice). */
export function stagingTarget(r: GradleRepositoryFact, stagingApiUrl: string): string {
  const base = stagingApiUrl.replace(/\/+$/, '');
  if (r.kind === 'snapshot') return CENTRAL_SNAPSHOTS_URL;
  if (r.jreleaserNexus2 === true) return `${base}/service/local`;
  if (r.nexus === true || r.nexusStaging === true) return `${base}/service/local/`;
  return expectedDeployUrl(base);
}

/** The one constant string literal on `line` whose value is `url`, as its inner offsets. */
function urlLiteral(source: FixSource, line: number, url: string): { start: number; end: number; value: string } | undefined {
  const hits = tokenize(source.text).filter((t) => t.kind === 'string' && t.line === line && t.dynamic !== true && t.text.trim() === url);
  const t = hits.length === 1 ? hits[0]! : undefined;
  if (t?.start === undefined || t.end === undefined) return undefined;
  const written = source.text.slice(t.start, t.end);
  const at = written.indexOf(url);
  return at > 0 ? { start: t.start + at, end: t.start + at + url.length, value: url } : undefined;
}

/**
 * The Central Portal uploader the build applies (nmcp, or JReleaser with its Maven Central
 * deployer), when it has one: a plain release repository on a retired host is then a leftover
 * second upload path, which maintainers remove rather than re-point.
 */
function portalUploader(ctx: FixContext): string | undefined {
  const g = ctx.facts.gradle!;
  const plugins = g.projects.flatMap((p) => p.plugins);
  const nmcp = plugins.find((p) => p.id.startsWith('com.gradleup.nmcp'));
  if (nmcp !== undefined) return `${nmcp.id} (${nmcp.file}:${nmcp.line})`;
  const jreleaser = plugins.find((p) => p.id === 'org.jreleaser');
  if (jreleaser !== undefined && (g.publishing.jreleaserMavenCentral !== undefined || ctx.facts.jreleaserFile !== undefined)) return `JReleaser's Maven Central deployer (${jreleaser.file}:${jreleaser.line})`;
  return undefined;
}

function repositoryFix(ctx: FixContext, f: Finding, r: GradleRepositoryFact): FixEdit | FixDeclined {
  if (r.implicit === true) return declined(f.code, `no URL is written (the plugin's default host): ${f.fix}`, f);
  const uploader = r.kind === 'release' && r.nexus !== true && r.nexusStaging !== true && r.jreleaserNexus2 !== true ? portalUploader(ctx) : undefined;
  if (uploader !== undefined) {
    const target = stagingTarget(r, ctx.facts.gradle!.stagingApiUrl);
    return declined(
      f.code,
      `the build uploads to the Central Portal with ${uploader}, so this repository on a retired host is a leftover second upload path: remove its maven { } block at ${r.file}:${r.line} (relctl does not delete a block); only if the release does upload through it, set its url to ${target}`,
      f,
    );
  }
  if (r.via !== undefined) return declined(f.code, `the URL comes from ${r.via}, not from a literal on this line: ${f.fix}`, f);
  const source = ctx.read(r.file);
  if (source === undefined) return declined(f.code, `${r.file} could not be read`, f);
  const literal = urlLiteral(source, r.line, r.url);
  if (literal === undefined) return declined(f.code, `the URL on this line is built from an interpolated string or an expression, not one literal: ${f.fix}`, f);
  const target = stagingTarget(r, ctx.facts.gradle!.stagingApiUrl);
  return replaceEdit(source, literal.start, literal.end, target, f.code, r.url, target);
}

/**
 * gradle-nexus with a `nexusUrl` written and no `snapshotRepositoryUrl`: the plugin's default
 * snapshot URL is the retired oss.sonatype.org, so the fix adds the Central snapshots URL next to
 * the new nexusUrl, written the way the nexusUrl line is (`.set(uri(...))` or `= uri(...)`), as
 * the Central Portal's migration guide shows both. Undefined when the line is not that simple.
 */
function missingSnapshotUrl(ctx: FixContext, r: GradleRepositoryFact, repositories: readonly GradleRepositoryFact[], code: string): FixEdit | undefined {
  if (r.nexus !== true || r.kind !== 'release' || r.implicit === true || r.nexusStaging === true || r.jreleaserNexus2 === true || r.nexusRepository === undefined) return undefined;
  if (repositories.some((x) => x.file === r.file && x.nexus === true && x.kind === 'snapshot' && x.nexusRepository === r.nexusRepository)) return undefined;
  const source = ctx.read(r.file);
  if (source === undefined) return undefined;
  const lines = source.text.split(/(\r\n|\r|\n)/);
  const text = lines[(r.line - 1) * 2];
  const eol = lines[(r.line - 1) * 2 + 1] ?? '\n';
  if (text === undefined) return undefined;
  const m = /^(\s*)nexusUrl\b(.*)$/.exec(text);
  if (m === null || m[2]!.split(r.url).length !== 2) return undefined;
  // A trailing comment belongs to the nexusUrl line (the URL itself holds `//`, so only after it).
  const [pre, post] = m[2]!.split(r.url) as [string, string];
  const rest = `${pre}${CENTRAL_SNAPSHOTS_URL}${post.replace(/\s*\/\/.*$/, '')}`;
  const line = `${m[1]}snapshotRepositoryUrl${rest}`;
  const end = lines.slice(0, (r.line - 1) * 2 + 1).join('').length;
  return insertEdit(source, end, `${eol === '' ? '\n' : eol}${line}`, code, line.trim());
}

export const gradleStagingUrlFix: FixRule = {
  codes,
  plan(ctx) {
    const out: FixPlan = { edits: [], declined: [] };
    const g = ctx.facts.gradle;
    if (g === undefined) return out;
    const repositories = g.projects.flatMap((p) => p.repositories);
    const planned = new Set<string>();
    for (const f of ctx.findings) {
      if (!(codes as readonly string[]).includes(f.code) || f.file === undefined) continue;
      if (!inProject(f.file)) {
        out.declined.push(declined(f.code, `${f.file} is outside the project, which --fix never edits: ${f.fix}`, f));
        continue;
      }
      // The finding names its URL; a script applied by several projects lists it once per project.
      const named = repositories.filter((r) => r.file === f.file && r.line === f.line && f.message.includes(r.url));
      const r = named.find((x) => f.message.includes(`The ${x.kind} repository URL ${x.url}`)) ?? named[0];
      const result = r === undefined ? vanniktechHostFix(ctx, f) : repositoryFix(ctx, f, r);
      if ('replacement' in result) {
        const key = `${result.file}:${result.start}`;
        if (!planned.has(key)) out.edits.push(result);
        planned.add(key);
        const snapshot = r === undefined ? undefined : missingSnapshotUrl(ctx, r, repositories, f.code);
        if (snapshot !== undefined && !planned.has(`${snapshot.file}:${snapshot.start}:snapshot`)) out.edits.push(snapshot);
        if (snapshot !== undefined) planned.add(`${snapshot.file}:${snapshot.start}:snapshot`);
      } else out.declined.push(result);
    }
    return out;
  },
};
