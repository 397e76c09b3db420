/**
 * The vanniktech plugin's host, where the build names it: `SONATYPE_HOST=S01` (or DEFAULT, or a
 * retired host's URL) in gradle.properties, `SonatypeHost.S01` / `"S01"` in
 * `publishToMavenCentral(...)`; both become CENTRAL_PORTAL, which exists from 0.28.0 on (the
 * plugin's CHANGELOG; 0.34.0 accepts nothing else). An older or unknown plugin version, or a host
 * the plugin picks by default, is declined with what to write for that version
 * (vanniktech-advice.ts): the upgrade and the property, never only "drop it".
 */
import type { Finding } from '../../core/findings.js';
import type { FixDeclined, FixEdit, FixSource } from '../../core/fix/types.js';
import { tokenize } from '../../core/gradle/lexer.js';
import type { FixContext } from './types.js';
import { declined, replaceEdit } from './edits.js';
import { hasCentralPortal, vanniktechAt, vanniktechPortalAdvice, type VanniktechAt } from '../vanniktech-advice.js';

const portal = 'CENTRAL_PORTAL';
const retired = /^(S01|DEFAULT|https?:\/\/(s01\.)?oss\.sonatype\.org\b.*)$/i;

const pluginAt = (ctx: FixContext): VanniktechAt => vanniktechAt(ctx.facts.gradle!);

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
    return declined(f.code, `no host setting is written on this line (the plugin picks its default): ${vanniktechPortalAdvice(pluginAt(ctx))}`, f);
  }
  const at = pluginAt(ctx);
  if (hasCentralPortal(at.version) !== true) {
    const kind = host?.file === f.file ? 'property' : 'script';
    return declined(f.code, vanniktechPortalAdvice(at, { kind, value: found.value }), f);
  }
  return replaceEdit(source, found.start, found.end, portal, f.code, found.value, portal);
}
