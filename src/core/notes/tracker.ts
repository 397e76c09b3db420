import type { Finding } from '../findings.js';

/**
 * The tracker check of the release notes (DESIGN §11): every referenced issue should be
 * resolved before the notes go out. Pure: lookups are done by src/tracker; this file decides
 * what each answer means and how loudly to say it.
 */
export interface RepoName {
  owner: string;
  name: string;
}

export type TrackerRef =
  | { kind: 'github'; ref: string; repo: RepoName | undefined; number: number }
  | { kind: 'jira'; ref: string; key: string };

/** `owner/name` → RepoName; anything else undefined. */
export function parseRepoName(text: string): RepoName | undefined {
  const m = /^([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+)$/.exec(text.trim());
  if (m === null || m[1] === '.' || m[1] === '..' || m[2] === '.' || m[2] === '..') return undefined;
  return { owner: m[1]!, name: m[2]!.replace(/\.git$/, '') };
}

/**
 * The owner/name of a git remote URL, whatever its host (the API base URL is configured
 * separately): `git@host:o/n.git`, `ssh://git@host/o/n`, `https://host/o/n.git`, a local path.
 */
export function repoFromRemoteUrl(url: string): RepoName | undefined {
  const trimmed = url.trim().replace(/\/+$/, '').replace(/\.git$/, '');
  const scp = /^[^/@:]+@[^/:]+:(.+)$/.exec(trimmed);
  let path: string;
  if (scp !== null) path = scp[1]!;
  else {
    try {
      path = new URL(trimmed).pathname;
    } catch {
      path = trimmed;
    }
  }
  const parts = path.split('/').filter((p) => p !== '');
  if (parts.length < 2) return undefined;
  return parseRepoName(`${parts[parts.length - 2]}/${parts[parts.length - 1]}`);
}

export function trackerRefs(refs: readonly string[], repo: RepoName | undefined): TrackerRef[] {
  const out: TrackerRef[] = [];
  for (const ref of new Set(refs)) {
    const gh = /^(?:([^/#\s]+)\/([^/#\s]+))?#(\d+)$/.exec(ref);
    if (gh !== null) {
      const own = gh[1] === undefined ? repo : { owner: gh[1], name: gh[2]! };
      out.push({ kind: 'github', ref, repo: own, number: Number(gh[3]) });
    } else if (/^[A-Z][A-Z0-9]*-\d+$/.test(ref)) out.push({ kind: 'jira', ref, key: ref });
  }
  return out;
}

export type LookupResult =
  | { ref: string; outcome: 'resolved' }
  | { ref: string; outcome: 'unresolved'; status: string; url?: string }
  | { ref: string; outcome: 'unknown'; where: string }
  | { ref: string; outcome: 'unreachable'; reason: string };

/** Findings for the answers: warnings, errors with --strict; a resolved issue says nothing. */
export function trackerFindings(results: readonly LookupResult[], strict: boolean): Finding[] {
  const severity = strict ? 'error' : 'warning';
  const findings: Finding[] = [];
  for (const r of results) {
    switch (r.outcome) {
      case 'resolved':
        break;
      case 'unresolved':
        findings.push({
          code: 'tracker-unresolved',
          severity,
          message: `${r.ref} is referenced by the release notes but is not resolved (${r.status}).`,
          fix: `Resolve ${r.ref}${r.url === undefined ? '' : ` (${r.url})`} if the release finishes it, or leave it out of the commit message's references.`,
        });
        break;
      case 'unknown':
        findings.push({
          code: 'tracker-unknown',
          severity,
          message: `${r.ref} does not exist in ${r.where}.`,
          fix: 'Check the reference for a typo; for GitHub set --repo owner/name (or tracker.repo), for Jira tracker.jiraProjects and RELCTL_JIRA_URL.',
        });
        break;
      case 'unreachable':
        findings.push({
          code: 'tracker-unreachable',
          severity,
          message: `${r.ref} could not be checked: ${r.reason}.`,
          fix: 'Check the tracker settings (RELCTL_GITHUB_API_URL, RELCTL_JIRA_URL, --repo) and the network, then run relctl notes again; --offline skips the check.',
        });
        break;
    }
  }
  return findings;
}
