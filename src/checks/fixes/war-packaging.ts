/**
 * `packaging-mismatch` (DESIGN §4, Fixes): a module with web content is packaged as war. Maven:
 * `<packaging>` set to war, or inserted after the project's own `<artifactId>` (not the parent's).
 * Gradle: `id("war")` / `id 'war'` added to the project's own plugins block, or `apply plugin:
 * 'war'` after its top-level `apply plugin:` line; anything else (plugins from a root
 * `subprojects {}`, a one-line block) is declined with the line to add. The other direction (a war
 * without web content) needs a person: add the content, or say what the module really packages.
 */
import type { Finding } from '../../core/findings.js';
import type { FixDeclined, FixEdit, FixPlan } from '../../core/fix/types.js';
import { indentOfLine, lineInsertion } from '../../core/fix/text-style.js';
import type { FixContext, FixRule } from './types.js';
import { declined, insertEdit, replaceEdit, trimmedRange } from './edits.js';
import { gradleWarEdit } from './gradle-war.js';
import { elementAt, isEmptyTag, readXml } from './xml-fix-support.js';

const code = 'packaging-mismatch';

function mavenFix(ctx: FixContext, f: Finding): FixEdit | FixDeclined {
  const module = ctx.facts.maven!.modules.find((m) => m.file === f.file);
  if (module === undefined) return declined(code, 'not a POM of this project', f);
  if (!module.hasWebapp) return declined(code, `${module.file} is packaged as war without web content: add it under src/main/webapp, or set the packaging the module really produces`, f);
  const doc = readXml(ctx, module.file);
  if (doc === undefined) return declined(code, `${module.file} could not be read`, f);
  const { source, text, root } = doc;
  const packaging = elementAt(root, ['project', 'packaging']);
  if (packaging !== undefined && !isEmptyTag(packaging)) {
    const r = trimmedRange(text, packaging.contentStart, packaging.contentEnd);
    return replaceEdit(source, r.start, r.end, 'war', code, r.value, 'war');
  }
  const artifactId = elementAt(root, ['project', 'artifactId']);
  if (artifactId === undefined || packaging !== undefined) return declined(code, `add <packaging>war</packaging> after the <artifactId> of ${module.file}`, f);
  const line = `${indentOfLine(text, artifactId.start)}<packaging>war</packaging>`;
  const ins = lineInsertion(text, artifactId.end, line);
  return insertEdit(source, ins.at, ins.text, code, '<packaging>war</packaging>');
}

export const warPackagingFix: FixRule = {
  codes: [code],
  plan(ctx) {
    const out: FixPlan = { edits: [], declined: [] };
    for (const f of ctx.findings) {
      if (f.code !== code) continue;
      const r = ctx.facts.maven !== undefined ? mavenFix(ctx, f) : ctx.facts.gradle !== undefined ? gradleWarEdit(ctx, f) : declined(code, 'not a Maven or Gradle build', f);
      if ('replacement' in r) out.edits.push(r);
      else out.declined.push(r);
    }
    return out;
  },
};
