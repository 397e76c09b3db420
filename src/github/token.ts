import { execFile } from 'node:child_process';
import { childEnv, markSecretRead } from '../io/child-env.js';
import type { Redactor } from '../core/redact.js';

/**
 * The GitHub token (DESIGN §2): RELCTL_GITHUB_TOKEN, else GITHUB_TOKEN, else what `gh auth token`
 * prints. The token travels only in memory and in the Authorization header: it is registered with
 * the redactor at once, never put in a child's argv, never written to a file.
 */
export interface GithubToken {
  value: string;
  source: 'RELCTL_GITHUB_TOKEN' | 'GITHUB_TOKEN' | 'gh auth token';
}

/** The host `gh` keeps credentials for: github.com for the public API, else the API URL's host. */
export function ghHostOf(apiUrl: string): string {
  try {
    const host = new URL(apiUrl).host;
    return host === 'api.github.com' ? 'github.com' : host;
  } catch {
    return 'github.com';
  }
}

function ghAuthToken(host: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile('gh', ['auth', 'token', '--hostname', host], { env: childEnv(env), timeout: 10_000, encoding: 'utf8' }, (error, stdout) => {
      const token = error === null ? stdout.trim() : '';
      resolve(token === '' ? undefined : token);
    });
  });
}

export async function findGithubToken(env: NodeJS.ProcessEnv, apiUrl: string, redactor: Redactor): Promise<GithubToken | undefined> {
  let token: GithubToken | undefined;
  for (const name of ['RELCTL_GITHUB_TOKEN', 'GITHUB_TOKEN'] as const) {
    const v = env[name]?.trim();
    if (v !== undefined && v !== '') {
      token = { value: v, source: name };
      markSecretRead(name);
      break;
    }
  }
  if (token === undefined) {
    const v = await ghAuthToken(ghHostOf(apiUrl), env);
    if (v !== undefined) token = { value: v, source: 'gh auth token' };
  }
  if (token !== undefined) redactor.add(token.value);
  return token;
}
