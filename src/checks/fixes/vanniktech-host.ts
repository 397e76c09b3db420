/**
 * The vanniktech plugin's host, where the build names it: `SONATYPE_HOST=S01` (or DEFAULT, or a
 * retired host's URL) in gradle.properties, `SonatypeHost.S01` / `"S01"` in
 * `publishToMavenCentral(...)`; both become CENTRAL_PORTAL, which exists from 0.28.0 on (the
 * plugin's CHANGELOG; 0.34.0 accepts nothing else). An older or unknown plugin version, or a host
 * the plugin picks by default, is declined: upgrading the plugin is the fix there.
 */
import type { Finding } from '../../core/findings.js';
import type { FixDeclined, FixEdit, FixSource } from '../../core/fix/types.js';
import { tokenize } from '../../core/gradle/lexer.js';
import type { FixContext } from './types.js';
import { declined, replaceEdit } from './edits.js';
import { compareVersions, parseVersion } from '../../core/version.js';

const portal = 'CENTRAL_PORTAL';
const retired = /^(S01|DEFAULT|https?:\/\/(s01\.)?oss\.sonatype\.org\b.*)$/i;

/** True from `bound` on; undefined when the version is not known (or not a plain version). */
function atLeast(version: string | undefined, bound: string): boolean | undefined {
  const v = version === undefined ? undefined : parseVersion(version);
  return v === undefined ? undefined : compareVersions({ ...v, snapshot: false }, parseVersion(bound)!) >= 0;
}

function pluginVersion(ctx: FixContext): string | undefined {
  const g = ctx.facts.gradle!;
  const applied = g.projects.flatMap((p) => p.plugins).find((p) => /^com\.vanniktech\.maven\.publish(\.base)?$/.test(p.id) && p.version !== undefined);
  return applied?.version ?? g.publishing.vanniktechVersion;
}

/** `SONATYPE_HOST=value` on `line` of a properties file: the value's range. */
function propertyValue(source: FixSource, line: number): { start: number; end: number; value: string } | undefined {
  const lines = source.text.split(/(\r\n|\r|\n)/);
  let offset = 0;
  for (let i = 0, n = 1; i < lines.length; i += 2, n++) {
    if (n === line) {
      const m = /^(\s*SONATYPE_HOST\s*[=:]\s*)(\S+?)\s*$/.exec(lines[i]!);
      return m === null ? undefined : { start: offset + m[1]!.length, end: offset + m[1]!.length + m[2]!.length, value: m[2]! };
    }
    offset += lines[i]!.length + (lines[i + 1]?.length ?? 0);
  }
  return undefined;
}

/** `SonatypeHost.S01` (the identifier) or a `"S01"` string in a call on `line` of a script. */
function scriptHost(source: FixSource, line: number): { start: number; end: number; value: string } | undefined {
  const tokens = tokenize(source.text);
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.line !== line || t.start === undefined || t.end === undefined) continue;
    if (t.kind === 'ident' && tokens[i - 1]?.text === '.' && tokens[i - 2]?.text === 'SonatypeHost' && /^(S01|DEFAULT)$/.test(t.text)) return { start: t.start, end: t.end, value: t.text };
    if (t.kind === 'string' && t.dynamic !== true && /^(S01|DEFAULT)$/.test(t.text) && tokens.slice(Math.max(0, i - 3), i).some((x) => x.text === 'publishToMavenCentral')) {
      return { start: t.start + 1, end: t.end - 1, value: t.text };
    }
  }
  return undefined;
}

export function vanniktechHostFix(ctx: FixContext, f: Finding): FixEdit | FixDeclined {
  const host = ctx.facts.gradle!.publishing.sonatypeHost;
  const source = ctx.read(f.file!);
  if (source === undefined) return declined(f.code, `${f.file} could not be read`, f);
  const found = f.file!.endsWith('.properties') ? propertyValue(source, f.line ?? 0) : scriptHost(source, f.line ?? 0);
  if (found === undefined || !retired.test(found.value)) {
    return declined(f.code, `no host setting is written on this line (the plugin picks its default): ${f.fix}`, f);
  }
  const version = pluginVersion(ctx);
  const ok = atLeast(version, '0.28.0');
  if (ok !== true) {
    const why = ok === false ? `com.vanniktech.maven.publish ${version} has no CENTRAL_PORTAL host (from 0.28.0)` : 'the com.vanniktech.maven.publish version is not known, and CENTRAL_PORTAL needs 0.28.0 or later';
    const setting = host?.file === f.file ? `SONATYPE_HOST=${found.value}` : `SonatypeHost.${found.value}`;
    return declined(f.code, `${why}: upgrade the plugin to 0.33.0 or later and drop ${setting} (the Central Portal is then its default)`, f);
  }
  return replaceEdit(source, found.start, found.end, portal, f.code, found.value, portal);
}
