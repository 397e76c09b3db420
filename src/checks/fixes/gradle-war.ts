/**
 * The Gradle half of warPackagingFix: the war plugin added where the project applies its own
 * plugins, one new line copying its neighbours' indentation, quotes and line ending.
 */
import type { Finding } from '../../core/findings.js';
import type { FixDeclined, FixEdit, FixSource } from '../../core/fix/types.js';
import { tokenize, type Token } from '../../core/gradle/lexer.js';
import { indentOfLine, lineEndingAt, lineInsertion, lineStartOf } from '../../core/fix/text-style.js';
import type { FixContext } from './types.js';
import { declined, insertEdit } from './edits.js';

const code = 'packaging-mismatch';

/** The line a person adds, for the declined message. */
function lineToAdd(kotlin: boolean): string {
  return kotlin ? 'plugins { id("war") }' : "plugins { id 'war' } (or apply plugin: 'war')";
}

/** Top-level `plugins {`: the indices of its braces, or undefined. */
function pluginsBlock(tokens: readonly Token[]): { open: number; close: number } | undefined {
  let depth = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.kind === 'punct' && t.text === '{') depth++;
    else if (t.kind === 'punct' && t.text === '}') depth--;
    else if (depth === 0 && t.nl && t.kind === 'ident' && t.text === 'plugins' && tokens[i + 1]?.text === '{') {
      let d = 0;
      for (let j = i + 1; j < tokens.length; j++) {
        if (tokens[j]!.text === '{' && tokens[j]!.kind === 'punct') d++;
        else if (tokens[j]!.text === '}' && tokens[j]!.kind === 'punct' && --d === 0) return { open: i + 1, close: j };
      }
      return undefined;
    }
  }
  return undefined;
}

/** The first top-level `apply plugin: '...'` (Groovy) or `apply(plugin = "...")` (Kotlin) token index. */
function topLevelApply(tokens: readonly Token[]): number | undefined {
  let depth = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.kind === 'punct' && t.text === '{') depth++;
    else if (t.kind === 'punct' && t.text === '}') depth--;
    else if (depth === 0 && t.nl && t.text === 'apply' && t.kind === 'ident') {
      const next = tokens[i + 1]?.text === '(' ? tokens[i + 2] : tokens[i + 1];
      if (next?.kind === 'ident' && next.text === 'plugin') return i;
    }
  }
  return undefined;
}

function edit(source: FixSource, tokens: readonly Token[], kotlin: boolean): FixEdit | string {
  const text = source.text;
  const block = pluginsBlock(tokens);
  if (block !== undefined) {
    const close = tokens[block.close]!;
    const last = tokens[block.close - 1]!;
    // `plugins { java }` on one line, or a closing brace sharing its line: not a simple insertion.
    if (block.close === block.open + 1 || !close.nl || last.line === tokens[block.open]!.line) return 'the plugins block is not one entry a line';
    const firstEntry = tokens[block.open + 1]!;
    const quote = /^"/.test(text.slice(tokens.slice(block.open, block.close).find((t) => t.kind === 'string')?.start ?? 0)) ? '"' : "'";
    const entry = kotlin ? 'id("war")' : `id ${quote}war${quote}`;
    const at = lineStartOf(text, close.start!);
    return insertEdit(source, at, `${indentOfLine(text, firstEntry.start!)}${entry}${lineEndingAt(text, close.start!)}`, code, entry);
  }
  const apply = topLevelApply(tokens);
  if (apply !== undefined) {
    const t = tokens[apply]!;
    const lineEnd = tokens.find((x, k) => k > apply && x.nl);
    const lastOnLine = tokens[(lineEnd === undefined ? tokens.length : tokens.indexOf(lineEnd)) - 1]!;
    const entry = kotlin ? 'apply(plugin = "war")' : "apply plugin: 'war'";
    const ins = lineInsertion(text, lastOnLine.end!, `${indentOfLine(text, t.start!)}${entry}`);
    return insertEdit(source, ins.at, ins.text, code, entry);
  }
  return 'the build script has no plugins block or apply plugin line of its own';
}

export function gradleWarEdit(ctx: FixContext, f: Finding): FixEdit | FixDeclined {
  const project = ctx.facts.gradle!.projects.find((p) => p.path === f.module);
  const file = project?.buildFile;
  if (project === undefined || file === undefined) return declined(code, `the project has no build script of its own: create one with ${lineToAdd(false)}`, f);
  const kotlin = file.endsWith('.kts');
  if (!project.hasWebapp) return declined(code, 'not a web project', f);
  const source = ctx.read(file);
  if (source === undefined) return declined(code, `${file} could not be read`, f);
  const r = edit(source, tokenize(source.text), kotlin);
  return typeof r === 'string' ? declined(code, `${r}: add ${lineToAdd(kotlin)} to ${file}`, f) : r;
}
