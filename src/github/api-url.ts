import { UsageError } from '../core/errors.js';
import { isLoopbackHost } from '../core/loopback.js';

/**
 * The GitHub API base URL (`RELCTL_GITHUB_API_URL`, `--github-api-url`): https, or plain http on a
 * loopback address only (a local stand-in such as relctl's sandbox). A token is never sent in
 * clear text over a network.
 */
export function checkGithubApiUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`The GitHub API URL ${JSON.stringify(value)} is not a URL.`, { kind: 'invalid-config', fix: 'Set RELCTL_GITHUB_API_URL to e.g. https://api.github.com or https://github.example.org/api/v3.' });
  }
  if (url.protocol === 'https:') return value;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return value;
  throw new UsageError(`The GitHub API URL ${url.origin} is ${url.protocol === 'http:' ? 'plain HTTP on a host that is not loopback: the token would cross the network in clear text' : `not http(s) (${url.protocol})`}.`, {
    kind: 'invalid-config',
    fix: 'Use the https:// URL of the API (RELCTL_GITHUB_API_URL / --github-api-url); plain http:// is accepted on 127.0.0.1, localhost and ::1 only.',
  });
}
