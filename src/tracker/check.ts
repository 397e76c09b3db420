import type { Octokit } from '@octokit/rest';
import type { LookupResult, TrackerRef } from '../core/notes/tracker.js';
import { createLimiter } from '../core/validation/limiter.js';
import { redirectOf, relctlCause, statusOf } from '../github/client.js';
import { githubFailure } from '../github/errors.js';
import { plainText } from '../core/plain-text.js';
import type { HttpClient } from '../io/http.js';
import { mayCarryCredentials, type JiraAuth } from './jira-auth.js';

/**
 * Looks every tracker reference up, at most `concurrency` at once, each within the HTTP layer's
 * deadline. Never throws: an answer that cannot be had is "unreachable", which the notes report
 * and which blocks nothing without --strict.
 */
export interface TrackerDeps {
  github: () => Promise<Octokit>;
  http: HttpClient;
  jiraUrl?: string;
  /** RELCTL_JIRA_TOKEN (and RELCTL_JIRA_USER), see jira-auth.ts. */
  jiraAuth?: JiraAuth | undefined;
  concurrency?: number;
}

function reasonOf(error: unknown): string {
  const cause = relctlCause(error);
  const text = cause?.message ?? (error instanceof Error ? error.message : String(error));
  return text.replace(/\.$/, '');
}

async function githubLookup(ref: Extract<TrackerRef, { kind: 'github' }>, deps: TrackerDeps): Promise<LookupResult> {
  if (ref.repo === undefined) {
    return { ref: ref.ref, outcome: 'unreachable', reason: 'no GitHub repository is known (pass --repo owner/name, set tracker.repo, or add an origin remote)' };
  }
  try {
    const octokit = await deps.github();
    const res = await octokit.rest.issues.get({ owner: ref.repo.owner, repo: ref.repo.name, issue_number: ref.number });
    const moved = redirectOf(res);
    if (moved !== undefined) return { ref: ref.ref, outcome: 'unreachable', reason: `GitHub redirected (${moved}); the repository may have moved: set --repo or tracker.repo` };
    const { data } = res;
    // A proxy's or login page's HTML is no answer about the issue.
    if (typeof data !== 'object' || (data.state !== 'open' && data.state !== 'closed')) {
      return { ref: ref.ref, outcome: 'unreachable', reason: 'GitHub answered something that is not an issue' };
    }
    if (data.state === 'closed') return { ref: ref.ref, outcome: 'resolved' };
    return { ref: ref.ref, outcome: 'unresolved', status: data.state, url: plainText(String(data.html_url), { singleLine: true }) };
  } catch (error) {
    const status = statusOf(error);
    const where = `${ref.repo.owner}/${ref.repo.name}`;
    if (status === 404 || status === 410) return { ref: ref.ref, outcome: 'unknown', where };
    if (status !== undefined) {
      // One reading of GitHub's refusals (a rate limit and its reset, a refused token, a 422).
      const failure = githubFailure(error, `GitHub could not read ${where}#${ref.number}`, { rights: `read issues of ${where}`, retry: 'run relctl notes again' });
      return { ref: ref.ref, outcome: 'unreachable', reason: `${failure.message.replace(/\.$/, '')}; ${failure.fix ?? ''}`.replace(/[.;\s]+$/, '') };
    }
    return { ref: ref.ref, outcome: 'unreachable', reason: reasonOf(error) };
  }
}

interface JiraIssue {
  fields?: { status?: { name?: string; statusCategory?: { key?: string } }; resolution?: { name?: string } | null };
}

async function jiraLookup(ref: Extract<TrackerRef, { kind: 'jira' }>, deps: TrackerDeps): Promise<LookupResult> {
  if (deps.jiraUrl === undefined) {
    return { ref: ref.ref, outcome: 'unreachable', reason: 'no Jira URL is set (RELCTL_JIRA_URL or --jira-url)' };
  }
  const url = `${deps.jiraUrl.replace(/\/+$/, '')}/rest/api/2/issue/${encodeURIComponent(ref.key)}?fields=status,resolution`;
  const auth = deps.jiraAuth;
  if (auth !== undefined && !mayCarryCredentials(deps.jiraUrl)) {
    return { ref: ref.ref, outcome: 'unreachable', reason: `RELCTL_JIRA_TOKEN is not sent over plain HTTP to ${deps.jiraUrl} (use its https:// URL)` };
  }
  try {
    const headers: Record<string, string> = { accept: 'application/json', ...(auth === undefined ? {} : { authorization: auth.header }) };
    const res = await deps.http.request({ method: 'GET', url, headers });
    if (res.status === 401 || res.status === 403) {
      const why = auth === undefined ? 'set RELCTL_JIRA_TOKEN (and RELCTL_JIRA_USER for Jira Cloud)' : `check RELCTL_JIRA_TOKEN${auth.scheme === 'basic' ? ' and RELCTL_JIRA_USER' : ''}`;
      return { ref: ref.ref, outcome: 'unreachable', reason: `Jira refused the request (HTTP ${res.status}): ${why}` };
    }
    if (res.status === 404) return { ref: ref.ref, outcome: 'unknown', where: `Jira at ${deps.jiraUrl}${auth === undefined ? ' (asked without a token: a private project\'s issues need RELCTL_JIRA_TOKEN)' : ''}` };
    if (res.status !== 200) return { ref: ref.ref, outcome: 'unreachable', reason: `Jira answered HTTP ${res.status}` };
    const issue = res.json() as JiraIssue | undefined;
    if (issue?.fields === undefined) return { ref: ref.ref, outcome: 'unreachable', reason: 'Jira answered something that is not an issue' };
    const status = plainText(issue.fields.status?.name ?? 'no status', { singleLine: true }).slice(0, 100);
    const done = (issue.fields.resolution !== null && issue.fields.resolution !== undefined) || issue.fields.status?.statusCategory?.key === 'done';
    return done ? { ref: ref.ref, outcome: 'resolved' } : { ref: ref.ref, outcome: 'unresolved', status, url: `${deps.jiraUrl.replace(/\/+$/, '')}/browse/${ref.key}` };
  } catch (error) {
    return { ref: ref.ref, outcome: 'unreachable', reason: reasonOf(error) };
  }
}

export async function lookUpRefs(refs: readonly TrackerRef[], deps: TrackerDeps): Promise<LookupResult[]> {
  const limit = createLimiter(deps.concurrency ?? 4);
  return Promise.all(refs.map((r) => limit(() => (r.kind === 'github' ? githubLookup(r, deps) : jiraLookup(r, deps)))));
}
