import { CommitParser, type Commit } from 'conventional-commits-parser';
import { plainText } from '../plain-text.js';
import { parserView } from './parser-view.js';

/**
 * One commit of the release range as notes see it. Pure: the raw messages come from git
 * (src/io/git-history.ts); conventional-commits-parser does the grammar, this file the policy.
 */
export interface RawCommit {
  sha: string;
  message: string;
}

export interface NoteEntry {
  sha: string;
  /** Lower-case conventional type; null for an untyped commit. */
  type: string | null;
  scope: string | null;
  subject: string;
  breaking: boolean;
  /** `#12`, `owner/repo#12`, `UP-7`, in order of appearance. */
  refs: string[];
}

/**
 * Commits that are the release tool's own bookkeeping, not changes (DESIGN §11): the Maven
 * release plugin's, the Gradle release plugin's pre-tag / new-version commits, relctl's prep.
 */
export function isReleaseToolCommit(message: string): boolean {
  const subject = message.split('\n', 1)[0]!.trim();
  return (
    subject.startsWith('[maven-release-plugin]') ||
    /^\[Gradle Release Plugin\] - (pre tag|new version) commit/i.test(subject) ||
    /^chore: pre-release prep\b/.test(subject)
  );
}

/** Merge commits, for histories read without `--no-merges` (and squash-free "Merge ..." subjects). */
export function isMergeMessage(message: string): boolean {
  return /^Merge (branch|pull request|remote-tracking branch|tag) /.test(message);
}

export interface RefOptions {
  /** Jira project keys (`UP`); empty: any upper-case KEY-N that is not a well-known non-issue word. */
  jiraProjects?: readonly string[];
}

// KEY-N shapes that are standards, not Jira issues (UTF-8, SHA-256, ISO-8859, CVE-2024-1234, RFC-7231).
const notJiraKeys = new Set(['UTF', 'SHA', 'ISO', 'CVE', 'RFC', 'MD', 'TLS', 'SSL', 'HTTP', 'IPV', 'ES', 'JSR', 'JEP', 'GHSA']);

function parserFor(options: RefOptions): CommitParser {
  const jira = options.jiraProjects !== undefined && options.jiraProjects.length > 0
    ? options.jiraProjects.map((k) => `${k}-`)
    : [/[A-Z][A-Z0-9]{1,9}-/];
  return new CommitParser({
    headerPattern: /^(\w*)(?:\(([^()]*)\))?: (.*)$/,
    breakingHeaderPattern: /^(\w*)(?:\(([^()]*)\))?!: (.*)$/,
    headerCorrespondence: ['type', 'scope', 'subject'],
    issuePrefixes: ['#', ...jira],
    // Jira keys are upper case; `pre-release` must not read as project PRE.
    issuePrefixesCaseSensitive: true,
  });
}

function refsOf(commit: Commit): string[] {
  const out: string[] = [];
  for (const r of commit.references) {
    if (!/^\d+$/.test(r.issue)) continue;
    let ref: string | undefined;
    if (r.prefix === '#') {
      if (r.owner !== null && r.repository !== null) ref = `${r.owner}/${r.repository}#${r.issue}`;
      else if (r.repository === null) ref = `#${r.issue}`;
    } else if (r.repository === null) {
      const key = r.prefix.slice(0, -1);
      if (!notJiraKeys.has(key)) ref = `${key}-${r.issue}`;
    }
    if (ref !== undefined && !out.includes(ref)) out.push(ref);
  }
  return out;
}

/** A subject longer than this is shortened in the notes (a release page holds 125,000 characters). */
export const subjectLimit = 500;

function shortSubject(text: string): string {
  const subject = text.trim();
  return subject.length <= subjectLimit ? subject : `${subject.slice(0, subjectLimit - 1).trimEnd()}…`;
}

/**
 * Parses the range's commits (newest first, as git logs them), leaving out merges and release-tool
 * commits. Commit text enters the notes here, made plain (src/core/plain-text.ts), so nothing built
 * from the notes carries a control character; the parser sees a bounded view (parser-view.ts).
 */
export function noteEntries(commits: readonly RawCommit[], options: RefOptions = {}): NoteEntry[] {
  const parser = parserFor(options);
  const entries: NoteEntry[] = [];
  for (const c of commits) {
    const message = plainText(c.message).trim();
    if (message === '' || isMergeMessage(message) || isReleaseToolCommit(message)) continue;
    const view = parserView(message);
    const parsed = parser.parse(view.text);
    const header = message.split('\n', 1)[0]!.replace(/\t/g, ' ');
    const typed = typeof parsed.type === 'string' && parsed.type !== '' && typeof parsed.subject === 'string';
    const breaking = parsed.notes.some((n) => /^BREAKING[ -]CHANGE$/i.test(n.title));
    // A shortened header's subject is the original's, after the lead the parser read.
    const subject = view.headerLead !== undefined ? header.slice(typed ? view.headerLead : 0) : typed ? parsed.subject! : (parsed.header ?? header);
    entries.push({
      sha: c.sha,
      type: typed ? parsed.type!.toLowerCase() : null,
      scope: typed && typeof parsed.scope === 'string' && parsed.scope.trim() !== '' ? parsed.scope.trim() : null,
      subject: shortSubject(subject.replace(/\t/g, ' ')),
      breaking,
      refs: refsOf(parsed),
    });
  }
  return entries;
}
