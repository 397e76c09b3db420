/**
 * A distribution URL (or nexus-staging's `<nexusUrl>`) written as a property (`<url>${snapshots.url}</url>`, the value in
 * `<properties>` of the same POM or of a parent in the project): the fix changes the property's
 * value, where the maintainer would, and leaves the `${…}` use as it is. When the property is also
 * used for something else (a site URL, the other repository), changing it would change that too:
 * declined, with the URL to write in the use instead. Pure.
 */
import type { FixDeclined, FixEdit } from '../../core/fix/types.js';
import { replaceText } from '../../core/fix/xml-text.js';
import type { XmlElement } from '../../core/pom/xml.js';
import type { MavenModuleFacts } from '../../build-tools/maven/facts.js';
import type { FixContext } from './types.js';
import { declined as declinedAt, editOf } from './edits.js';
import { elementAt, readXml, type XmlDoc } from './xml-fix-support.js';

/** The property name when the whole value is one `${name}` reference. */
export function wholeProperty(text: string): string | undefined {
  return /^\$\{([^${}]+)\}$/.exec(text.trim())?.[1];
}

/** The project POMs the module inherits from, the module first (the first definition wins, as in Maven). */
function chainFiles(module: MavenModuleFacts): string[] {
  return module.chain.map((c) => c.file).filter((f): f is string => f !== undefined);
}

/** Every element whose own text holds `${name}`, with its parent, in a document. */
function usesIn(root: XmlElement, name: string): { el: XmlElement; parent: XmlElement | undefined; grand: XmlElement | undefined }[] {
  const out: { el: XmlElement; parent: XmlElement | undefined; grand: XmlElement | undefined }[] = [];
  const walk = (el: XmlElement, parent: XmlElement | undefined, grand: XmlElement | undefined): void => {
    if (el.text.includes(`\${${name}}`)) out.push({ el, parent, grand });
    for (const c of el.children) walk(c, el, parent);
  };
  walk(root, undefined, undefined);
  return out;
}

export type PropertyUrlResult = { edit: FixEdit; key: string } | { declined: FixDeclined } | undefined;

/**
 * The edit of the property's definition for the `<url>` `el` of a `<repository>` or
 * `<snapshotRepository>` (`kind`), or why not; undefined when the value is not one property
 * defined in a project POM (then the use itself is changed, as before).
 */
export function propertyUrlFix(ctx: FixContext, module: MavenModuleFacts, el: XmlElement, kind: 'repository' | 'snapshotRepository' | 'nexusUrl', value: string, code: string, fix: string): PropertyUrlResult {
  const name = wholeProperty(el.text);
  if (name === undefined) return undefined;
  let defined: { doc: XmlDoc; prop: XmlElement } | undefined;
  for (const file of chainFiles(module)) {
    const doc = readXml(ctx, file);
    const prop = doc === undefined ? undefined : elementAt(doc.root, ['project', 'properties', name]);
    if (doc !== undefined && prop !== undefined) {
      defined = { doc, prop };
      break;
    }
  }
  if (defined === undefined) return undefined;
  // Every use in the project's POMs must be a distribution URL of the same kind.
  const files = [...new Set([...ctx.facts.maven!.modules.map((m) => m.file), ...chainFiles(module)])];
  const others: string[] = [];
  for (const file of files) {
    const doc = readXml(ctx, file);
    if (doc === undefined) continue;
    for (const use of usesIn(doc.root, name)) {
      // nexus-staging-maven-plugin's <nexusUrl> (kind 'nexusUrl'): every other <nexusUrl> is the same use.
      const sameKind = kind === 'nexusUrl' ? use.el.name === 'nexusUrl' : use.el.name === 'url' && use.parent?.name === kind && use.grand?.name === 'distributionManagement';
      if (!sameKind) others.push(`${file}:${use.el.line} (${use.parent === undefined ? '' : `<${use.parent.name}>`}<${use.el.name}>)`);
    }
  }
  const where = `${defined.doc.source.file}:${defined.prop.line}`;
  if (others.length > 0) {
    const what = kind === 'repository' ? 'release' : kind === 'snapshotRepository' ? 'snapshot' : 'staging';
    const why = `the property ${name} (defined at ${where}) is also used at ${others.join(', ')}, so changing its value would change that too: write <${el.name}>${value}</${el.name}> in place of \${${name}} at ${module.file}:${el.line}, or give the ${what} URL its own property. ${fix}`;
    return { declined: declinedAt(code, why, { file: module.file, line: el.line }) };
  }
  const edit = editOf(defined.doc.source, replaceText(defined.doc.text, defined.prop, value), code, defined.prop.text, value);
  return { edit, key: `${defined.doc.source.file}:${defined.prop.start}` };
}
