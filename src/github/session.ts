import type { Octokit } from '@octokit/rest';
import type { CommandContext } from '../io/command-context.js';
import { HttpClient } from '../io/http.js';
import { githubClient } from './client.js';
import { findGithubToken } from './token.js';

/**
 * An Octokit on the configured GitHub API (`githubApiUrl`) with the token DESIGN §2 names
 * (RELCTL_GITHUB_TOKEN, GITHUB_TOKEN, `gh auth token`), over relctl's HttpClient.
 */
export interface GithubSession {
  gh: Octokit;
  hasToken: boolean;
  close(): Promise<void>;
}

export async function openGithub(ctx: CommandContext): Promise<GithubSession> {
  const token = await findGithubToken(ctx.env, ctx.config.githubApiUrl, ctx.out.redactor);
  const http = new HttpClient({ timeoutMs: ctx.config.timeout * 1000, env: ctx.env, signal: ctx.signal, log: (l) => ctx.out.verbose(l) });
  const gh = await githubClient({ baseUrl: ctx.config.githubApiUrl, http, ...(token === undefined ? {} : { token: token.value }) });
  return { gh, hasToken: token !== undefined, close: () => http.close() };
}
