import type { Octokit } from '@octokit/rest';
import { statusOf } from './client.js';
import { rateLimitReset } from './errors.js';

/**
 * The token's login, the author of what the token opens: GET /user; an app's installation token
 * (GITHUB_TOKEN in Actions, a GitHub App's token) may not call it (403 "Resource not accessible by
 * integration"), and GraphQL's `viewer` names its bot (`github-actions[bot]`).
 */
export async function tokenLogin(gh: Octokit): Promise<unknown> {
  try {
    return ((await gh.rest.users.getAuthenticated()).data as { login?: unknown }).login;
  } catch (error) {
    if (statusOf(error) !== 403 || rateLimitReset(error).limited) throw error;
    const answer = await gh.graphql<{ viewer?: { login?: unknown } }>('query { viewer { login } }').catch(() => Promise.reject(error));
    return answer.viewer?.login;
  }
}
