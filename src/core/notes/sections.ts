import type { NoteEntry } from './commits.js';

/** Section titles in their fixed order (DESIGN §11); empty sections are left out. */
export const sectionTitles = ['Breaking changes', 'Features', 'Fixes', 'Chores', 'Other'] as const;
export type SectionTitle = (typeof sectionTitles)[number];

export interface NoteSection {
  title: SectionTitle;
  entries: NoteEntry[];
}

/** A breaking change is listed once, under Breaking changes, whatever its type. */
export function sectionOf(e: NoteEntry): SectionTitle {
  if (e.breaking) return 'Breaking changes';
  if (e.type === 'feat') return 'Features';
  if (e.type === 'fix') return 'Fixes';
  return e.type === null ? 'Other' : 'Chores';
}

export function groupSections(entries: readonly NoteEntry[]): NoteSection[] {
  return sectionTitles
    .map((title) => ({ title, entries: entries.filter((e) => sectionOf(e) === title) }))
    .filter((s) => s.entries.length > 0);
}

export interface NotesDocument {
  /** The release version; undefined for unreleased changes up to HEAD. */
  version?: string;
  /** The last published version (or the --since tag) the range starts after. */
  previous?: string;
  /** Orphan versions between previous and this release (tagged, never published), oldest first. */
  skipped: string[];
  sections: NoteSection[];
}

export function orphanLine(version: string): string {
  return `${version} was prepared but not published; this release supersedes it.`;
}

/** Features and Fixes name the scope; mixed sections (Breaking changes, Chores) the type too. */
function entryLine(e: NoteEntry, title: SectionTitle): string {
  const typed = title === 'Breaking changes' || title === 'Chores';
  const label = typed && e.type !== null ? `${e.type}${e.scope === null ? '' : `(${e.scope})`}` : e.scope;
  const scope = label === null ? '' : `**${label}:** `;
  // References the subject already names are not repeated.
  const words = new Set(e.subject.split(/[\s(),;:[\]]+/));
  const extra = e.refs.filter((r) => !words.has(r));
  const refs = extra.length === 0 ? '' : ` (${extra.join(', ')})`;
  return `- ${scope}${e.subject}${refs} (${e.sha.slice(0, 7)})`;
}

/** The release notes as Markdown: the orphan lines, then each section. */
export function renderMarkdown(doc: NotesDocument): string {
  const lines: string[] = [];
  for (const v of doc.skipped) lines.push(orphanLine(v), '');
  if (doc.sections.length === 0) {
    lines.push(doc.previous === undefined ? 'No changes.' : `No changes since ${doc.previous}.`);
  }
  for (const s of doc.sections) {
    lines.push(`## ${s.title}`, '');
    for (const e of s.entries) lines.push(entryLine(e, s.title));
    lines.push('');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

/** The `--json` sections: entries with the short hash. */
export function sectionsJson(sections: readonly NoteSection[]): unknown[] {
  return sections.map((s) => ({
    title: s.title,
    entries: s.entries.map((e) => ({ sha: e.sha.slice(0, 7), type: e.type, scope: e.scope, subject: e.subject, breaking: e.breaking, refs: e.refs })),
  }));
}
