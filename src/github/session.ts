import type { Octokit } from '@octokit/rest';
import { HttpClient, userAgent } from '../portal/http.js';
import type { CommandContext } from '../io/command-context.js';

/**
 * An Octokit for the configured GitHub API (RELCTL_GITHUB_API_URL, default api.github.com) with
 * the token from RELCTL_GITHUB_TOKEN or GITHUB_TOKEN, registered with the redactor at once.
 * Loaded lazily: only the commands that talk to GitHub pay for octokit.
 */
export interface GithubSession {
  gh: Octokit;
  apiUrl: string;
  hasToken: boolean;
  close(): Promise<void>;
}

export async function openGithub(ctx: CommandContext): Promise<GithubSession> {
  const apiUrl = (ctx.env.RELCTL_GITHUB_API_URL ?? 'https://api.github.com').replace(/\/+$/, '');
  const token = [ctx.env.RELCTL_GITHUB_TOKEN, ctx.env.GITHUB_TOKEN].map((t) => t?.trim()).find((t) => t !== undefined && t !== '');
  ctx.out.redactor.add(token);
  const http = new HttpClient({ timeoutMs: ctx.config.timeout * 1000, env: ctx.env, signal: ctx.signal, log: (l) => ctx.out.verbose(l) });
  const { Octokit: Client } = await import('@octokit/rest');
  const silent = (): void => undefined;
  const gh = new Client({
    baseUrl: apiUrl,
    userAgent: userAgent(),
    ...(token === undefined ? {} : { auth: token }),
    request: {
      // octokit builds and decodes; relctl's HttpClient carries (deadline, retries, proxies, no redirects).
      fetch: async (input: string | URL | Request, init?: RequestInit) => {
        const url = typeof input === 'string' ? input : input instanceof URL ? input.toString() : input.url;
        const headers: Record<string, string> = {};
        new Headers(init?.headers).forEach((value, key) => {
          headers[key] = value;
        });
        const method = (init?.method ?? 'GET').toUpperCase() as 'GET';
        const body = typeof init?.body === 'string' ? init.body : undefined;
        const res = await http.request({ method, url, headers, ...(body === undefined ? {} : { body }) });
        const out = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') out.set(k, v);
        const empty = res.status === 204 || res.status === 304 || method === ('HEAD' as string);
        return new Response(empty ? null : Buffer.from(res.body), { status: res.status, headers: out });
      },
    },
    log: { debug: silent, info: silent, warn: silent, error: silent },
  });
  return { gh, apiUrl, hasToken: token !== undefined, close: () => http.close() };
}
