import { cp, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ConfigSections } from '../../core/config/sections.js';
import { repoFromRemoteUrl } from '../../core/notes/tracker.js';
import type { CommandContext } from '../../io/command-context.js';
import { runGit } from '../../io/git.js';
import type { ProcessRunner } from '../../io/process-runner.js';
import { HttpClient } from '../../io/http.js';
import { repoFolder } from '../post/distribution-dir.js';
import { runChain, type ChainSummary } from '../runner.js';
import type { ReleaseContext, StepId } from '../types.js';

/**
 * `rehearse --post-release`: after the sandbox published the release, the chores that talk to
 * services run against the sandbox's stand-ins: the notes and their release page and the
 * distribution pull request on its GitHub, the announcement to its SMTP listener. smoke and image
 * are not rehearsed (they start the local distribution and push to a registry). Nothing real is
 * touched: the copy gets its own copy of the git history, a local distribution clone is only read
 * (its gradle.properties seeds the sandbox's copy of the repository).
 */
export interface PostReleaseRehearsal {
  src: string;
  copy: string;
  /** The rehearsal's context (sandbox URLs in its config). */
  rctx: CommandContext;
  smtpUrl: string;
  githubApiUrl: string;
  proc: ProcessRunner;
  initial: Partial<ReleaseContext>;
}

/**
 * The history the rehearsed notes read: the copy's own when the rehearsal's build made one (the
 * project's history plus the rehearsed release commits and tag), else a copy of the project's git
 * folder, so notes read the real history without touching it.
 */
async function copyGitHistory(src: string, copy: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  const own = await runGit(copy, ['rev-parse', '--show-toplevel'], { env });
  if (own.ok && path.resolve(own.stdout.trim()) === path.resolve(copy)) return true;
  const top = await runGit(src, ['rev-parse', '--show-toplevel'], { env });
  if (!top.ok || path.resolve(top.stdout.trim()) !== path.resolve(src)) return false;
  await cp(path.join(src, '.git'), path.join(copy, '.git'), { recursive: true });
  return true;
}

/** The local distribution clone's gradle.properties (origin's default branch, else the worktree) and its owner/name. */
async function localDistribution(rctx: CommandContext, src: string): Promise<{ repo: string; properties: string } | undefined> {
  // Relative to the real project, not the rehearsal's copy.
  const dir = await repoFolder({ ...rctx, cwd: src });
  if (dir === undefined) return undefined;
  const origin = await runGit(dir, ['remote', 'get-url', 'origin'], { env: rctx.env });
  const name = origin.ok ? repoFromRemoteUrl(origin.stdout.trim()) : undefined;
  if (name === undefined) return undefined;
  const head = await runGit(dir, ['show', 'origin/HEAD:gradle.properties'], { env: rctx.env });
  const properties = head.ok ? `${head.stdout}\n` : await readFile(path.join(dir, 'gradle.properties'), 'utf8').catch(() => undefined);
  return properties === undefined ? undefined : { repo: `${name.owner}/${name.name}`, properties };
}

export async function rehearsePostRelease(r: PostReleaseRehearsal): Promise<ChainSummary> {
  const hasHistory = await copyGitHistory(r.src, r.copy, r.rctx.env);
  if (!hasHistory) r.rctx.out.warn('The project is not the top of a git repository: the rehearsed notes have no history.');
  const token = 'rehearsal';
  r.rctx.out.redactor.add(token);
  let distribution: ConfigSections['distribution'] | undefined;
  const local = await localDistribution(r.rctx, r.src);
  if (local !== undefined) {
    // The sandbox's copy of the distribution repository starts with the clone's gradle.properties.
    const http = new HttpClient({ timeoutMs: r.rctx.config.timeout * 1000, env: r.rctx.env });
    await http.request({
      method: 'PUT',
      url: `${r.githubApiUrl}/repos/${local.repo}/contents/gradle.properties`,
      headers: { authorization: `token ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'the distribution as the rehearsal found it', content: Buffer.from(local.properties).toString('base64') }),
    }).finally(() => http.close());
    const property = r.rctx.config.distribution?.property;
    distribution = { repo: local.repo, ...(property === undefined ? {} : { property }) };
  } else if (r.rctx.config.distribution?.repo !== undefined) {
    r.rctx.out.info('distribute is rehearsed with a local distribution clone only (distribution.repo as a folder): the sandbox has no copy of a remote one.');
  }
  if (hasHistory && r.initial.tag !== undefined) await mirrorReleaseTag({ ...r.rctx, cwd: r.copy }, r.githubApiUrl, token, r.initial.tag);
  const ctx: CommandContext = {
    ...r.rctx,
    env: { ...r.rctx.env, RELCTL_SMTP_URL: r.smtpUrl, RELCTL_GITHUB_TOKEN: token },
    config: { ...r.rctx.config, distribution },
  };
  const steps: StepId[] = ['notes', 'distribute', 'notify'];
  return runChain(
    { ctx, options: { dryRun: false, yes: true, interactive: false, offline: false, waitTimeout: 60 }, proc: r.proc, command: 'run' },
    { command: 'rehearse', steps, initial: r.initial, returnFailures: true },
  );
}

/**
 * The release pushed its tag to the repository host; the sandbox's copy of the project's repository
 * gets it too, so the rehearsed release page is made the way `notes --publish` makes the real one
 * (it checks the tag is on the host first).
 */
async function mirrorReleaseTag(ctx: CommandContext, api: string, token: string, tag: string): Promise<void> {
  const { resolveRepo } = await import('../../notes/build.js');
  const repo = await resolveRepo(ctx, undefined).catch(() => undefined);
  if (repo === undefined) return;
  const http = new HttpClient({ timeoutMs: ctx.config.timeout * 1000, env: ctx.env });
  const call = (method: 'GET' | 'PUT' | 'POST', route: string, body?: unknown) =>
    http.request({
      method,
      url: `${api}/repos/${encodeURIComponent(repo.owner)}/${encodeURIComponent(repo.name)}${route}`,
      headers: { authorization: `token ${token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  try {
    let head = await call('GET', '/git/ref/heads/main');
    if (head.status === 404) {
      await call('PUT', '/contents/README.md', { message: 'the repository as the rehearsal found it', content: Buffer.from(`${repo.name}\n`).toString('base64') });
      head = await call('GET', '/git/ref/heads/main');
    }
    const sha = (head.json() as { object?: { sha?: string } } | undefined)?.object?.sha;
    if (sha !== undefined) await call('POST', '/git/refs', { ref: `refs/tags/${tag}`, sha });
  } finally {
    await http.close();
  }
}
