import { EnvironmentError, StepFailedError, UsageError } from '../core/errors.js';
import { lineDiff } from '../core/notes/diff.js';
import type { RepoName } from '../core/notes/tracker.js';
import { githubClient, githubMessage, redirectOf, relctlCause, statusOf } from '../github/client.js';
import { githubFailure as readGithubFailure } from '../github/errors.js';
import { findGithubToken } from '../github/token.js';
import type { CommandContext } from '../io/command-context.js';
import { AmbiguousRequestError, type HttpClient } from '../io/http.js';
import { askYesNo } from '../ui/ask.js';

/**
 * The release page on GitHub (DESIGN §11, seed 4.8 step 1): one release per tag. Missing: created.
 * Present with the same text: left alone. Present with other text: the difference is shown and the
 * page updated only with --yes (or a yes on a terminal); never a second release for the tag. The tag
 * must exist on GitHub first: a release made for a tag GitHub does not have would make GitHub
 * create that tag itself, on the default branch's head, which is not the released commit.
 */
export interface PublishRequest {
  repo: RepoName | undefined;
  tag: string | undefined;
  name: string;
  body: string;
  /** `--draft` / `--prerelease`: GitHub's own flags of the release. */
  draft: boolean;
  prerelease: boolean;
  yes: boolean;
  dryRun: boolean;
}

export type PublishOutcome =
  | { action: 'created' | 'updated' | 'unchanged'; url: string }
  | { action: 'dry-run'; url: null; request: { method: string; url: string; body: Record<string, unknown> } };

const movedFix = 'The repository may have moved or been renamed: pass its current owner/name with --repo (or tracker.repo).';
const apiUrlFix = 'Check RELCTL_GITHUB_API_URL: it must be the REST API (https://api.github.com, or https://HOST/api/v3 for GitHub Enterprise).';

/** The release page's URL from GitHub's answer; a redirect or anything else (an HTML page, a proxy's reply) is exit 3. */
function pageUrl(res: { status: number; headers: Record<string, unknown>; data: unknown }, what: string): string {
  const moved = redirectOf(res);
  if (moved !== undefined) {
    throw new EnvironmentError(`GitHub redirected ${what} (${moved}); relctl follows no redirects on API calls.`, {
      kind: 'unexpected-response',
      fix: movedFix,
    });
  }
  const url = (res.data as { html_url?: unknown } | null)?.html_url;
  if (typeof res.data === 'object' && typeof url === 'string') return url;
  throw new EnvironmentError(`GitHub's answer to ${what} is not a release.`, {
    kind: 'unexpected-response',
    fix: apiUrlFix,
  });
}

function githubFailure(error: unknown, what: string): Error {
  const own = relctlCause(error);
  if (own instanceof AmbiguousRequestError) {
    // Safe to repeat: the next run looks the release up by its tag before it creates anything.
    return new AmbiguousRequestError(own.message, { fix: 'Run relctl notes --publish again: it finds a release the lost request made and never makes a second one.' });
  }
  return readGithubFailure(error, `GitHub could not ${what}`, {
    rights: 'write releases of this repository (contents: write)',
    retry: 'run relctl notes --publish again (it never makes a second release)',
  });
}

type Octokit = Awaited<ReturnType<typeof githubClient>>;
type ExistingRelease = { id: number; name: string | null; body?: string | null; html_url: string; draft?: boolean; prerelease?: boolean };

/** The tag must be on GitHub before its release is made (`git/ref/tags/{tag}`). */
async function requireRemoteTag(ctx: CommandContext, octokit: Octokit, owner: string, repo: string, tag: string, dryRun: boolean): Promise<void> {
  try {
    const res = await octokit.rest.git.getRef({ owner, repo, ref: `tags/${tag}` });
    const moved = redirectOf(res);
    if (moved !== undefined) throw new EnvironmentError(`GitHub redirected the lookup of the tag ${tag} (${moved}); relctl follows no redirects on API calls.`, { kind: 'unexpected-response', fix: movedFix });
    return;
  } catch (error) {
    if (error instanceof EnvironmentError) throw error;
    const missing = statusOf(error) === 404;
    const failure = missing
      ? new StepFailedError(`The tag ${tag} is not on GitHub (${owner}/${repo}); the release page is made only for a tag GitHub has.`, {
          kind: 'tag-not-pushed',
          fix: `Push the tag first: git push origin ${tag} (or git push --tags), then run relctl notes --publish again.`,
        })
      : githubFailure(error, `look up the tag ${tag}`);
    if (!dryRun) throw failure;
    ctx.out.warn(`${failure.message} (dry run: going on to show the request)`);
  }
}

/** The release of the tag: by tag, else a draft of it (GitHub's by-tag lookup does not see drafts). */
async function findRelease(octokit: Octokit, owner: string, repo: string, tag: string): Promise<ExistingRelease | undefined> {
  try {
    const res = await octokit.rest.repos.getReleaseByTag({ owner, repo, tag });
    pageUrl(res, `the lookup of the release of ${tag}`);
    return res.data;
  } catch (error) {
    if (error instanceof EnvironmentError || statusOf(error) !== 404) throw error;
  }
  const list = await octokit.rest.repos.listReleases({ owner, repo, per_page: 100 });
  if (redirectOf(list) !== undefined) pageUrl(list, 'the list of releases');
  if (!Array.isArray(list.data)) {
    throw new EnvironmentError("GitHub's answer to the list of releases is not a list.", {
      kind: 'unexpected-response',
      fix: apiUrlFix,
    });
  }
  return (list.data as (ExistingRelease & { tag_name?: string })[]).find((r) => r.draft === true && r.tag_name === tag);
}

export async function publishRelease(ctx: CommandContext, http: HttpClient, req: PublishRequest): Promise<PublishOutcome> {
  if (req.repo === undefined) {
    throw new UsageError('No GitHub repository to publish the release page to.', {
      kind: 'no-repo',
      fix: 'Pass --repo owner/name, set tracker.repo in relctl.config.json, or add an origin remote.',
    });
  }
  if (req.tag === undefined) {
    throw new UsageError('The release has no tag here, so there is no release page to make.', {
      kind: 'no-release-tag',
      fix: 'Publish after the release tag exists (the build step makes it), or name the version with --release-version X.Y.Z.',
    });
  }
  const { owner, name: repo } = req.repo;
  const base = ctx.config.githubApiUrl.replace(/\/+$/, '');
  const token = await findGithubToken(ctx.env, ctx.config.githubApiUrl, ctx.out.redactor);
  if (token !== undefined) ctx.out.verbose(`GitHub token from ${token.source}`);
  const octokit = await githubClient({ baseUrl: base, http, ...(token === undefined ? {} : { token: token.value }) });

  // Reading is harmless, so a dry run looks too (when it can) and shows the real request.
  let existing: ExistingRelease | undefined;
  try {
    existing = await findRelease(octokit, owner, repo, req.tag);
  } catch (error) {
    if (error instanceof EnvironmentError) throw error;
    if (!req.dryRun) throw githubFailure(error, `read the release of ${req.tag}`);
    ctx.out.warn(`Could not look for an existing release of ${req.tag}: ${githubMessage(error)}.`);
  }
  const fields = { name: req.name, body: req.body, draft: req.draft, prerelease: req.prerelease };
  if (!req.dryRun && token === undefined) {
    throw new UsageError('No GitHub token to publish the release page with.', {
      kind: 'missing-github-token',
      fix: 'Set RELCTL_GITHUB_TOKEN (or GITHUB_TOKEN), or log in with `gh auth login`; --dry-run shows the request without one.',
    });
  }
  if (existing === undefined) await requireRemoteTag(ctx, octokit, owner, repo, req.tag, req.dryRun);
  if (req.dryRun) {
    const request =
      existing === undefined
        ? { method: 'POST', url: `${base}/repos/${owner}/${repo}/releases`, body: { tag_name: req.tag, ...fields } }
        : { method: 'PATCH', url: `${base}/repos/${owner}/${repo}/releases/${existing.id}`, body: fields };
    return { action: 'dry-run', url: null, request };
  }
  if (existing === undefined) {
    try {
      const res = await octokit.rest.repos.createRelease({ owner, repo, tag_name: req.tag, ...fields });
      return { action: 'created', url: pageUrl(res, `the creation of the release of ${req.tag}`) };
    } catch (error) {
      if (error instanceof EnvironmentError) throw error;
      throw githubFailure(error, `create the release of ${req.tag}`);
    }
  }
  const flags = (r: { draft?: boolean; prerelease?: boolean }): string => `(draft: ${r.draft === true ? 'yes' : 'no'}, prerelease: ${r.prerelease === true ? 'yes' : 'no'})`;
  if ((existing.body ?? '') === req.body && (existing.name ?? '') === req.name && flags(existing) === flags(req)) return { action: 'unchanged', url: existing.html_url };
  const diff = lineDiff(`${existing.name ?? ''} ${flags(existing)}\n\n${existing.body ?? ''}`, `${req.name} ${flags(req)}\n\n${req.body}`);
  ctx.out.info(`The release ${existing.html_url} exists with other text; the change would be:\n${diff.join('\n')}`);
  if (!req.yes) {
    if (!ctx.canPrompt) {
      throw new UsageError(`The release of ${req.tag} exists with other text; it is updated only with --yes.`, {
        kind: 'release-exists',
        fix: 'Review the difference above, then run again with --yes to update it.',
        data: { releaseUrl: existing.html_url },
      });
    }
    if (!(await askYesNo(`Update the release of ${req.tag}?`, false))) return { action: 'unchanged', url: existing.html_url };
  }
  try {
    const res = await octokit.rest.repos.updateRelease({ owner, repo, release_id: existing.id, ...fields });
    return { action: 'updated', url: pageUrl(res, `the update of the release of ${req.tag}`) };
  } catch (error) {
    if (error instanceof EnvironmentError) throw error;
    throw githubFailure(error, `update the release of ${req.tag}`);
  }
}
