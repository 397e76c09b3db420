/** The publishing-plugin settings of a Gradle build that decide its route (DESIGN §4). */
import type { ScriptReference } from '../../core/gradle/build-script.js';
import type { PropertyEntry } from '../../core/gradle/properties.js';
import type { GradlePublishingFacts } from './facts.js';
import type { LoadedScript } from './scripts.js';

interface PropertySources {
  /** The project's gradle.properties entries and file (root-relative). */
  project: ReadonlyMap<string, PropertyEntry>;
  projectFile?: string;
  /** The user's gradle.properties entries. */
  user: ReadonlyMap<string, PropertyEntry>;
  userDisplay: string;
  env: NodeJS.ProcessEnv;
  /** Keys available as Gradle properties (user file and ORG_GRADLE_PROJECT_*). */
  userKeys: readonly string[];
}

/** A Gradle property as Gradle resolves it: environment first, then the user's file, then the project's. */
function property(name: string, p: PropertySources): { value: string; file?: string; line?: number } | undefined {
  const env = p.env[`ORG_GRADLE_PROJECT_${name}`];
  if (env !== undefined && env !== '') return { value: env, file: `ORG_GRADLE_PROJECT_${name}` };
  const user = p.user.get(name);
  if (user !== undefined) return { value: user.value.trim(), file: p.userDisplay, line: user.line };
  const own = p.project.get(name);
  if (own !== undefined) return { value: own.value.trim(), ...(p.projectFile === undefined ? {} : { file: p.projectFile }), line: own.line };
  return undefined;
}

/** Whether Gradle would find this property or variable (environment, user or project properties). */
function isSet(r: ScriptReference, p: PropertySources, keys: ReadonlySet<string>): boolean {
  // A project gradle.properties often commits empty placeholders (`ossrhPassword=`): those are not set.
  return r.env ? (p.env[r.name] ?? '') !== '' : keys.has(r.name) || (p.project.get(r.name)?.value.trim() ?? '') !== '';
}

export function publishingFacts(scripts: readonly LoadedScript[], p: PropertySources): GradlePublishingFacts {
  const out: GradlePublishingFacts = {};
  const keys = new Set(p.userKeys);
  const projectKeys = [...p.project].filter(([, e]) => e.value.trim() !== '').map(([k]) => k);
  if (projectKeys.length > 0) out.projectKeys = projectKeys;
  const parts = scripts.flatMap((s) => s.parts);
  // An extra property the root sets from a JVM system property (CAS) is supplied by `systemProp.<x>`, not `<name>`.
  const systemProps = new Map(parts.flatMap(({ script }) => Object.entries(script.extSystemProperties ?? {})));
  const actual = (r: ScriptReference): ScriptReference => (!r.env && systemProps.has(r.name) ? { name: `systemProp.${systemProps.get(r.name)!}`, env: false } : r);
  for (const { file, script } of parts) {
    for (const c of script.credentials ?? []) {
      const missing: ScriptReference[] = [];
      // A credential is there when any of the names its expression reads is set (`a ?: b`).
      for (const half of [c.username, c.password]) {
        const refs = half?.refs.map(actual) ?? [];
        if (refs.length > 0 && !refs.some((r) => isSet(r, p, keys))) missing.push(refs[0]!);
      }
      (out.scriptCredentials ??= []).push({ file, line: c.line, kind: c.kind, ...(c.url === undefined ? {} : { url: c.url }), missing });
    }
    if (out.centralHost === undefined && script.centralHost !== undefined) out.centralHost = { file, ...script.centralHost };
    if (out.gpgCmd === undefined && script.gpgCmd !== undefined) out.gpgCmd = { file, line: script.gpgCmd };
    if (out.vanniktechVersion === undefined && script.vanniktechVersion !== undefined) out.vanniktechVersion = script.vanniktechVersion;
    if (out.jreleaserMavenCentral === undefined && script.jreleaserMavenCentral !== undefined) out.jreleaserMavenCentral = { file, line: script.jreleaserMavenCentral };
    if (out.inMemorySigning === undefined && script.inMemorySigning !== undefined) {
      const missing = script.inMemorySigning.args.filter((a) => a.length > 0 && !a.some((r) => isSet(r, p, keys))).map((a) => a[0]!.name);
      out.inMemorySigning = { file, line: script.inMemorySigning.line, refs: script.inMemorySigning.refs, missing };
    }
  }
  const host = property('SONATYPE_HOST', p);
  if (host !== undefined) out.sonatypeHost = host;
  const central = property('mavenCentralPublishing', p);
  if (central !== undefined && central.value === 'true') {
    const { value: _value, ...where } = central;
    out.mavenCentralPublishing = where;
  }
  return out;
}
