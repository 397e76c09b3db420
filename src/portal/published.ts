import { isRelctlError } from '../core/errors.js';
import type { PortalPublishedLookup } from '../io/published.js';
import { PortalClient } from './client.js';
import { httpFor, tokenOf } from './session.js';

/**
 * The portal's side of io/published.ts: with a token at hand, the Publisher API's `published`
 * answer; without one, undefined (the public repository answers instead). A refused token or an
 * unreachable portal is an unknown answer with its reason, never an exception.
 */
export const portalPublishedLookup: PortalPublishedLookup = async (ctx, c) => {
  const token = await tokenOf(ctx).catch(() => undefined);
  if (token === undefined) return undefined;
  // One retry: the portal only saves the public repository's lag, which answers when it cannot.
  const http = httpFor(ctx, { retries: 1 });
  const portal = new PortalClient(http, ctx.config, token);
  const url = portal.publishedUrl(c);
  try {
    return { published: await portal.published(c), source: 'portal', url };
  } catch (error) {
    const reason = isRelctlError(error) ? error.message.split('\n')[0]! : (error as Error).message;
    return { published: undefined, source: 'portal', url, reason };
  } finally {
    await http.close();
  }
};
