/**
 * `--org OWNER`: an owner's repositories through the host's API (DESIGN §13, Selection), every
 * page. An organisation first, then a user of that name (GitHub answers 404 for the other kind).
 */
import type { Octokit } from '@octokit/rest';
import { EnvironmentError, UsageError } from '../core/errors.js';
import { githubFailure } from '../github/errors.js';
import { redirectOf, statusOf } from '../github/client.js';
import { withRateLimitRetry } from '../github/rate-limited.js';
import type { ListedRepo } from './selection.js';

const maxPages = 100;

const words = { rights: 'read the repositories of the organisation', retry: 'run the fleet command again' };

/** The clone host of an API root: api.github.com → github.com, `https://HOST/api/v3` → `https://HOST`, `…/api` → `…`. */
export function hostUrlOf(apiUrl: string): string {
  const trimmed = apiUrl.replace(/\/+$/, '');
  if (/^https?:\/\/api\.github\.com$/i.test(trimmed)) return 'https://github.com';
  return trimmed.replace(/\/api(\/v3)?$/, '');
}

export async function listOwnerRepos(gh: Octokit, owner: string, log: (line: string) => void = () => undefined, signal?: AbortSignal): Promise<ListedRepo[]> {
  for (const kind of ['orgs', 'users'] as const) {
    const listed: ListedRepo[] = [];
    try {
      for (let page = 1; page <= maxPages; page++) {
        const res = await withRateLimitRetry(() => gh.request(`GET /${kind}/{owner}/repos`, { owner, per_page: 100, page, type: kind === 'orgs' ? 'all' : 'owner' }), { what: `listing the repositories of ${owner}`, log, ...(signal === undefined ? {} : { signal }) });
        const moved = redirectOf({ status: res.status, headers: res.headers as Record<string, unknown> });
        if (moved !== undefined) throw new EnvironmentError(`GitHub redirected the repository list of ${owner} (${moved}); relctl follows no redirects on API calls.`, { kind: 'unexpected-response', fix: 'The owner may have been renamed: pass its current name to --org.' });
        if (!Array.isArray(res.data)) throw new EnvironmentError(`GitHub's answer to the repository list of ${owner} (HTTP ${res.status}) is not a list.`, { kind: 'unexpected-response', fix: 'Check --github-url: it must be the REST API root (https://api.github.com, or https://HOST/api/v3).' });
        for (const item of res.data as unknown[]) {
          const repo = listedRepo(item);
          if (repo !== undefined) listed.push(repo);
        }
        const link = String((res.headers as Record<string, unknown>).link ?? '');
        if (!/rel="next"/.test(link) || res.data.length === 0) return listed;
      }
      return listed;
    } catch (error) {
      if (statusOf(error) === 404 && kind === 'orgs') continue;
      if (statusOf(error) === 404) throw new UsageError(`GitHub knows no organisation or user named ${owner}.`, { kind: 'unknown-owner', fix: 'Check the name given to --org (and --github-url for GitHub Enterprise or the sandbox).' });
      throw githubFailure(error, `listing the repositories of ${owner}`, words);
    }
  }
  return [];
}

function listedRepo(item: unknown): ListedRepo | undefined {
  if (item === null || typeof item !== 'object') return undefined;
  const r = item as Record<string, unknown>;
  if (typeof r.full_name !== 'string') return undefined;
  return {
    fullName: r.full_name,
    ...(typeof r.clone_url === 'string' ? { cloneUrl: r.clone_url } : {}),
    ...(typeof r.default_branch === 'string' ? { defaultBranch: r.default_branch } : {}),
    archived: r.archived === true,
    fork: r.fork === true,
    topics: Array.isArray(r.topics) ? r.topics.filter((t): t is string => typeof t === 'string') : [],
  };
}
