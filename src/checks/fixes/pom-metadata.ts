/**
 * POM metadata findings (DESIGN §4, Fixes): not fixable, they need a person's facts, so each is
 * declined with what to write. The one exception, with `--fix-metadata`: `<url>` and `<scm><url>`
 * of the top-level POM from the git remote. Only those two: the portal requires them, while
 * `<connection>`/`<developerConnection>` choose a protocol (and where a release plugin pushes),
 * which is the maintainer's call.
 */
import type { Finding } from '../../core/findings.js';
import type { FixEdit, FixPlan } from '../../core/fix/types.js';
import { indentBefore, indentOfLine, lineEndingAt, lineInsertion } from '../../core/fix/text-style.js';
import { indentUnit } from '../../core/fix/xml-text.js';
import type { XmlElement } from '../../core/pom/xml.js';
import type { FixContext, FixRule } from './types.js';
import { declined, insertEdit } from './edits.js';
import { browseUrlOf } from '../../core/remote-url.js';
import { elementAt, isEmptyTag, readXml, type XmlDoc } from './xml-fix-support.js';

const code = 'missing-pom-metadata';
const personal: Record<string, string> = {
  'missing-developers': 'who develops the component is a person\'s fact',
  'developers-incomplete': 'a developer\'s organization is a person\'s fact',
  'unresolved-property': 'the value of a property defined nowhere is a person\'s fact',
};

// Maven's element order (the POM reference): a new element goes after the last of those before it.
const beforeUrl = ['artifactId', 'version', 'packaging', 'name', 'description'];
const beforeScm = [...beforeUrl, 'url', 'inceptionYear', 'organization', 'licenses', 'developers', 'contributors', 'mailingLists', 'prerequisites', 'modules'];

/** The elements a missing-pom-metadata finding names (`<name>`, `<scm><url>`, ...), in the POM's order. */
function missingElements(f: Finding): string[] {
  const named = (e: string): boolean => (e === '<url>' ? /(^|[^>])<url>/.test(f.message) : f.message.includes(e));
  return ['<name>', '<description>', '<url>', '<licenses>', '<scm><url>'].filter(named);
}

function anchorAfter(project: XmlElement, names: readonly string[]): number | undefined {
  const found = project.children.filter((e) => names.includes(e.name));
  return found.length === 0 ? undefined : Math.max(...found.map((e) => e.end));
}

/** `<url>` and `<scm><url>` for the top-level POM: insertions at one point are merged, url first. */
function remoteEdits(doc: XmlDoc, wanted: string[], url: string): { edits: FixEdit[]; left: string[] } {
  const { source, text, root } = doc;
  const inserts = new Map<number, { text: string; after: string[] }>();
  const add = (at: { at: number; text: string }, after: string): void => {
    const prev = inserts.get(at.at);
    inserts.set(at.at, prev === undefined ? { text: at.text, after: [after] } : { text: prev.text + at.text, after: [...prev.after, after] });
  };
  const left: string[] = [];
  const project = elementAt(root, ['project']);
  const childIndent = (el: number): string => indentOfLine(text, el);
  for (const element of wanted) {
    if (element === '<url>') {
      const at = project === undefined ? undefined : anchorAfter(project, beforeUrl);
      if (at === undefined) left.push(element);
      else add(lineInsertion(text, at, `${childIndent(at - 1)}<url>${url}</url>`), `<url>${url}</url>`);
    } else if (element === '<scm><url>') {
      const scm = elementAt(root, ['project', 'scm']);
      if (scm !== undefined && !isEmptyTag(scm)) {
        const first = scm.children[0];
        const indent = (first === undefined ? undefined : indentBefore(text, first.start)) || `${indentOfLine(text, scm.start)}${indentUnit(text, scm, root)}`;
        add(lineInsertion(text, scm.contentStart, `${indent}<url>${url}</url>`), `<scm><url>${url}</url></scm>`);
        continue;
      }
      const at = scm === undefined && project !== undefined ? anchorAfter(project, beforeScm) : undefined;
      if (at === undefined || project === undefined) {
        left.push(element);
        continue;
      }
      const indent = childIndent(at - 1);
      const eol = lineEndingAt(text, at);
      add(lineInsertion(text, at, `${indent}<scm>${eol}${indent}${indentUnit(text, project, root)}<url>${url}</url>${eol}${indent}</scm>`), `<scm><url>${url}</url></scm>`);
    }
  }
  const edits = [...inserts].map(([at, v]) => insertEdit(source, at, v.text, code, v.after.join(' ')));
  return { edits, left };
}

export const pomMetadataFix: FixRule = {
  codes: [code, ...Object.keys(personal)],
  plan(ctx) {
    const out: FixPlan = { edits: [], declined: [] };
    for (const f of ctx.findings) {
      if (f.code in personal) {
        out.declined.push(declined(f.code, `${personal[f.code]}: ${f.fix}`, f));
        continue;
      }
      if (f.code !== code) continue;
      let wanted = missingElements(f);
      const module = ctx.facts.maven?.modules.find((m) => m.file === f.file);
      const url = browseUrlOf(ctx.options.remoteUrl);
      const doc = module?.topLevel === true ? readXml(ctx, module.file) : undefined;
      if (ctx.options.fixMetadata && url !== undefined && doc !== undefined) {
        const fromRemote: string[] = wanted.filter((e) => e === '<url>' || e === '<scm><url>');
        const r = remoteEdits(doc, fromRemote, url);
        out.edits.push(...r.edits);
        wanted = wanted.filter((e) => !fromRemote.includes(e) || r.left.includes(e));
      }
      for (const element of wanted) out.declined.push(declined(code, declineWhy(element, ctx, module?.topLevel === true, f.file), f));
    }
    return out;
  },
};

function declineWhy(element: string, ctx: FixContext, topLevel: boolean, file: string | undefined): string {
  const where = file ?? 'the POM';
  if ((element === '<url>' || element === '<scm><url>') && topLevel) {
    const why = !ctx.options.fixMetadata
      ? 'filled from the git remote only with --fix-metadata'
      : browseUrlOf(ctx.options.remoteUrl) === undefined
        ? 'the git remote gives no web address'
        : 'there is no place to insert it';
    return `add ${element} to ${where} (${why})`;
  }
  return `add ${element} to ${where}: its value is a person's fact`;
}
