/**
 * What to write so that com.vanniktech.maven.publish uploads through the Central Portal, by the
 * plugin version the build applies (its CHANGELOG): CENTRAL_PORTAL exists from 0.28.0
 * (`SONATYPE_HOST=CENTRAL_PORTAL`, `SonatypeHost.CENTRAL_PORTAL`); 0.33.0 added
 * `mavenCentralPublishing=true` (replacing that property) and made `publishToMavenCentral()`
 * without a host mean the Portal; 0.34.0 removed `SonatypeHost` and the OSSRH hosts. Dropping a
 * host setting is never the advice on its own: before 0.33.0 the plugin then has no Portal target.
 * Pure.
 */
import { compareVersions, parseVersion } from '../core/version.js';
import type { GradleFacts } from '../build-tools/gradle/facts.js';

/** The version advised for an upgrade: the first without the OSSRH hosts. */
export const VANNIKTECH_UPGRADE = '0.34.0';

/** Where the host is set today: a gradle.properties line or a `SonatypeHost.X` in a script. */
export interface VanniktechHostSetting {
  kind: 'property' | 'script';
  /** The value written (`DEFAULT`, `S01`, an OSSRH URL). */
  value: string;
}

export interface VanniktechAt {
  version: string | undefined;
  /** Where the plugin (and so its version) is applied, `build.gradle.kts:3`. */
  appliedAt?: string;
}

/** -1, 0, 1 against `bound`; undefined when the version is not a plain one. */
function against(version: string | undefined, bound: string): number | undefined {
  const v = version === undefined ? undefined : parseVersion(version);
  return v === undefined ? undefined : compareVersions({ ...v, snapshot: false }, parseVersion(bound)!);
}

/** True from 0.28.0 on (CENTRAL_PORTAL exists); undefined when the version is not known. */
export function hasCentralPortal(version: string | undefined): boolean | undefined {
  const c = against(version, '0.28.0');
  return c === undefined ? undefined : c >= 0;
}

/** What to replace `setting` with, for a plugin at `at`: a sentence a person can follow as is. */
export function vanniktechPortalAdvice(at: VanniktechAt, setting?: VanniktechHostSetting): string {
  const v = at.version;
  const where = at.appliedAt === undefined ? '' : ` (applied at ${at.appliedAt})`;
  const upgrade = `upgrade com.vanniktech.maven.publish${where} to ${VANNIKTECH_UPGRADE}`;
  const replace =
    setting === undefined
      ? 'set mavenCentralPublishing=true in gradle.properties'
      : setting.kind === 'property'
        ? `replace SONATYPE_HOST=${setting.value} with mavenCentralPublishing=true in gradle.properties`
        : `replace SonatypeHost.${setting.value} with publishToMavenCentral() without a host (SonatypeHost is gone in ${VANNIKTECH_UPGRADE})`;
  const known = hasCentralPortal(v);
  if (known === undefined) {
    return `the com.vanniktech.maven.publish version${where} is not known: on ${VANNIKTECH_UPGRADE} or later, ${replace}; on 0.28.0 to 0.33.x, set SONATYPE_HOST=CENTRAL_PORTAL instead; before 0.28.0, ${upgrade} first`;
  }
  if (!known) {
    return `com.vanniktech.maven.publish ${v} has no Central Portal target (CENTRAL_PORTAL came in 0.28.0), so dropping the host would leave it none: ${upgrade} and ${replace}`;
  }
  const c033 = against(v, '0.33.0')!;
  if (c033 < 0) {
    const host = setting?.kind === 'script' ? `SonatypeHost.CENTRAL_PORTAL in publishToMavenCentral(...)` : 'SONATYPE_HOST=CENTRAL_PORTAL in gradle.properties';
    return `com.vanniktech.maven.publish ${v} publishes to the Central Portal when told CENTRAL_PORTAL: set ${host} (mavenCentralPublishing=true needs 0.33.0 or later)`;
  }
  return `com.vanniktech.maven.publish ${v}: ${replace} (SONATYPE_HOST=CENTRAL_PORTAL also works)`;
}

/** The plugin's version and where it is applied (a person upgrades it there), from the Gradle facts. */
export function vanniktechAt(g: GradleFacts): VanniktechAt {
  const plugins = g.projects.flatMap((p) => p.plugins).filter((p) => /^com\.vanniktech\.maven\.publish(\.base)?$/.test(p.id));
  const applied = plugins.find((p) => p.version !== undefined) ?? plugins[0];
  const version = applied?.version ?? g.publishing.vanniktechVersion;
  return { version, ...(applied === undefined ? {} : { appliedAt: `${applied.file}:${applied.line}` }) };
}

/** The host setting the build writes, when it writes a retired one (gradle.properties or the script). */
export function vanniktechSetting(g: GradleFacts): VanniktechHostSetting | undefined {
  const dsl = g.publishing.centralHost?.host;
  if (dsl !== undefined && dsl !== '') return { kind: 'script', value: dsl.toUpperCase() };
  const prop = g.publishing.sonatypeHost?.value;
  return prop === undefined || prop === '' ? undefined : { kind: 'property', value: prop };
}

/** The finding's fix: the advice as a sentence. */
export function vanniktechFix(g: GradleFacts): string {
  const advice = vanniktechPortalAdvice(vanniktechAt(g), vanniktechSetting(g));
  // A plugin id keeps its case; a sentence that starts with a word is capitalised.
  return `${advice.startsWith('com.') ? advice : `${advice.charAt(0).toUpperCase()}${advice.slice(1)}`}.`;
}
