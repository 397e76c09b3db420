/**
 * `notes --changelog FILE` (DESIGN §11), as release-it's and semantic-release's changelog plugins
 * do it: the release's section goes on top of the history, under the file's title or preamble and
 * above the newest `## ` section; every other byte of the file stays as it was. Pure: the caller
 * reads and writes the file.
 */
export type ChangelogPlan =
  | { action: 'insert'; text: string; section: string; line: number }
  | { action: 'present'; line: number };

/** The release notes' own `## Features` headings become `###` under the release's `##`. */
function sectionText(version: string, date: string, notes: string, eol: string): string {
  const body = notes
    .trimEnd()
    .split('\n')
    .map((l) => (l.startsWith('## ') ? `#${l}` : l));
  return [`## ${version} (${date})`, '', ...body, '', ''].join(eol);
}

function escaped(version: string): string {
  return version.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Where the first `## ` heading outside a code fence starts (the newest release), and whether a
 * `## X.Y.Z` (or `## [X.Y.Z]`, `## vX.Y.Z`) heading for this version is already there.
 */
function scan(text: string, version: string): { firstSection?: { offset: number; line: number }; present?: number } {
  const own = new RegExp(`^## \\[?v?${escaped(version)}\\]?(?:[\\s(]|$)`);
  let fenced = false;
  let offset = 0;
  let found: { offset: number; line: number } | undefined;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.replace(/\r$/, '');
    if (/^(```|~~~)/.test(line)) fenced = !fenced;
    else if (!fenced && line.startsWith('## ')) {
      if (own.test(line)) return { ...(found === undefined ? {} : { firstSection: found }), present: i + 1 };
      found ??= { offset, line: i + 1 };
    }
    offset += lines[i]!.length + 1;
  }
  return found === undefined ? {} : { firstSection: found };
}

/**
 * The file with the release's section inserted, or `present` when the file already has one for
 * the version: a second run leaves the file as it is (it never rewrites what a person may have
 * edited since). `existing` undefined: a new file with a `# Changelog` title.
 */
export function planChangelog(existing: string | undefined, version: string, date: string, notes: string): ChangelogPlan {
  if (existing === undefined) {
    const section = sectionText(version, date, notes, '\n');
    return { action: 'insert', text: `# Changelog\n\n${section}`, section, line: 3 };
  }
  const eol = existing.includes('\r\n') ? '\r\n' : '\n';
  const section = sectionText(version, date, notes, eol);
  const found = scan(existing, version);
  if (found.present !== undefined) return { action: 'present', line: found.present };
  if (found.firstSection !== undefined) {
    const at = found.firstSection.offset;
    return { action: 'insert', text: existing.slice(0, at) + section + existing.slice(at), section, line: found.firstSection.line };
  }
  // Only a title or preamble (or nothing): the section follows it after one blank line.
  const lead = existing === '' || existing === '\uFEFF' ? '' : existing.endsWith(`${eol}${eol}`) ? '' : existing.endsWith(eol) ? eol : `${eol}${eol}`;
  const line = (existing + lead).split('\n').length;
  return { action: 'insert', text: existing + lead + section, section, line };
}
