/**
 * A fleet repository's last release (DESIGN §13): its newest release tag, and whether that version
 * is on the public repository. "A green job, but nothing on Central" is what the maintainers of a
 * migrated fleet most often report, so the answer is asked, not assumed.
 */
import type { ReleaseFacts } from '../checks/facts.js';
import { tagVersionReader } from '../core/tag-forms.js';
import type { CommandContext } from '../io/command-context.js';
import { listTags, runGit } from '../io/git.js';
import { clockNow } from '../io/clock.js';
import { describeVerdict, publishedVerdict } from '../io/published.js';
import { pomUrl } from '../io/public-repo.js';
import type { FleetLastRelease } from './report-types.js';

/** Newest first: tags by the date of what they point at (a lightweight tag has no date of its own). */
export async function tagsNewestFirst(dir: string, env: NodeJS.ProcessEnv): Promise<string[]> {
  const r = await runGit(dir, ['for-each-ref', '--sort=-creatordate', '--format=%(refname:lstrip=2)', 'refs/tags/'], { env });
  return r.ok ? r.stdout.split('\n').filter((t) => t !== '') : [];
}

/** The newest tag that names a release version of the component (not a snapshot), with that version. */
export function newestReleaseTag(tags: readonly string[], artifactId: string | undefined, template?: string): { tag: string; version: string } | undefined {
  const read = tagVersionReader(artifactId ?? '', template);
  for (const tag of tags) {
    const version = read(tag);
    if (version !== undefined && !/-SNAPSHOT$/i.test(version)) return { tag, version };
  }
  return undefined;
}

/** `tags`: the repository's tag names when the audit already listed them (else they are listed here). */
export async function lastReleaseOf(ctx: CommandContext, dir: string, release: ReleaseFacts | undefined, offline: boolean, tags?: readonly string[]): Promise<FleetLastRelease | null> {
  if (offline) return null;
  // Dates only when some tag names a release: git reads every tag's object to date it (seconds at 40,000 CI tags).
  if (newestReleaseTag(tags ?? (await listTags(dir, { env: ctx.env })), release?.artifactId, release?.tagTemplate) === undefined) return null;
  const newest = newestReleaseTag(await tagsNewestFirst(dir, ctx.env), release?.artifactId, release?.tagTemplate);
  if (newest === undefined) return null;
  if (release?.groupId === undefined || release.artifactId === undefined) return { ...newest, published: null };
  const coordinates = { groupId: release.groupId, artifactId: release.artifactId, version: newest.version };
  const answer = await publishedVerdict(ctx, coordinates);
  ctx.out.verbose(`${answer.url}: ${describeVerdict(answer)}`);
  // The version's folder on the public repository: what "last release" links to.
  const page = pomUrl({ publicRepoUrl: ctx.config.publicRepoUrl, ...coordinates }).replace(/[^/]*$/, '');
  return { ...newest, published: answer.published ?? null, source: answer.source, page, checked: clockNow(ctx.env).toISOString().slice(0, 10) };
}
