import { isLoopbackHost } from '../core/loopback.js';

/**
 * How the tracker check signs in to Jira (DESIGN §11): `RELCTL_JIRA_TOKEN` alone is a personal
 * access token sent as `Bearer` (Jira Data Center / Server); with `RELCTL_JIRA_USER` it is an API
 * token sent with HTTP basic (Jira Cloud's user e-mail + token). Neither: anonymous, which reads
 * public projects only. Both values are secrets the redactor masks (src/io/child-env.ts lists them).
 */
export interface JiraAuth {
  header: string;
  scheme: 'Bearer' | 'basic';
}

export function jiraAuth(env: NodeJS.ProcessEnv): JiraAuth | undefined {
  const token = env.RELCTL_JIRA_TOKEN?.trim();
  if (token === undefined || token === '') return undefined;
  const user = env.RELCTL_JIRA_USER?.trim();
  if (user === undefined || user === '') return { header: `Bearer ${token}`, scheme: 'Bearer' };
  return { header: `Basic ${Buffer.from(`${user}:${token}`).toString('base64')}`, scheme: 'basic' };
}

/** A token goes over TLS, or to this machine; never in clear text across a network. */
export function mayCarryCredentials(jiraUrl: string): boolean {
  try {
    const url = new URL(jiraUrl);
    return url.protocol === 'https:' || isLoopbackHost(url.hostname);
  } catch {
    return false;
  }
}
