/**
 * Is a release published? The one question behind the orphan-tag rule, verify's already-published,
 * notes' last release, the post-release guards and the fleet's lastRelease (DESIGN §5a). The
 * portal's Publisher API answers at once when a token is at hand; the public repository lags it
 * by up to half an hour after PUBLISHED, so it is asked only without a token, when the portal
 * cannot answer, or to confirm a "no" (a component released before the portal existed).
 * Every answer names its source.
 */
import { EnvironmentError } from '../core/errors.js';
import type { CommandContext } from './command-context.js';
import { isVersionPublished } from './public-repo.js';

export type PublishedSource = 'portal' | 'public repository';

export interface ReleaseCoordinates {
  groupId: string;
  artifactId: string;
  version: string;
}

export type PublishedVerdict =
  | { published: boolean; source: PublishedSource; url: string }
  | { published: undefined; source: PublishedSource; url: string; reason: string };

/**
 * The portal's answer, or undefined when no token is at hand. The portal layer
 * (src/portal/published.ts) provides it once per process (commands/context.ts), which keeps the
 * arrows pointing inward; without it (unit tests, library use) the public repository answers.
 */
export type PortalPublishedLookup = (ctx: CommandContext, c: ReleaseCoordinates) => Promise<PublishedVerdict | undefined>;

let portalLookup: PortalPublishedLookup | undefined;

/** Lets the portal answer "published?" in this process (called when a command's context is made). */
export function askPortalForPublished(lookup: PortalPublishedLookup): void {
  portalLookup = lookup;
}

/** The one function every "is X published?" call site goes through. Never throws. */
export async function publishedVerdict(ctx: CommandContext, c: ReleaseCoordinates): Promise<PublishedVerdict> {
  const portal = await portalLookup?.(ctx, c);
  if (portal?.published === true) return portal;
  const repo = await isVersionPublished({
    publicRepoUrl: ctx.config.publicRepoUrl,
    ...c,
    timeoutMs: ctx.config.timeout * 1000,
    signal: ctx.signal,
    env: ctx.env,
  });
  // A portal "no" stands unless the public repository has it; an unknown public answer keeps the portal's.
  if (portal?.published === false && repo.published !== true) return portal;
  return { ...repo, source: 'public repository' };
}

/** `published (portal)`, `not published (public repository)`, `unknown (public repository: HTTP 503)`. */
export function describeVerdict(v: PublishedVerdict): string {
  if (v.published === undefined) return `unknown (${v.source}: ${v.reason})`;
  return `${v.published ? 'published' : 'not published'} (${v.source})`;
}

/** Which service last said a version is published or not, by `g:a:v` (the messages name it). */
const answeredBy = new Map<string, PublishedSource>();

/** `(portal)` or `(public repository)`: which service answered for the version this process asked about. */
export function sourceOf(c: ReleaseCoordinates): string {
  return `(${answeredBy.get(`${c.groupId}:${c.artifactId}:${c.version}`) ?? 'public repository'})`;
}

/** Yes or no, logged with its source; an answer neither service can give is an EnvironmentError, never a guess. */
export async function isReleasePublished(ctx: CommandContext, c: ReleaseCoordinates): Promise<boolean> {
  const verdict = await publishedVerdict(ctx, c);
  const id = `${c.groupId}:${c.artifactId}:${c.version}`;
  ctx.out.verbose(`${id}: ${describeVerdict(verdict)}`);
  if (verdict.published !== undefined) {
    answeredBy.set(id, verdict.source);
    return verdict.published;
  }
  throw new EnvironmentError(`Cannot tell whether ${id} is published (${verdict.source}: ${verdict.reason}).`, {
    kind: 'public-repo-unavailable',
    fix: 'Try again later, or check --portal-url and --public-repo-url.',
  });
}
