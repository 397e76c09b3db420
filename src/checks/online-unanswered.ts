import { keyLookupErrors } from './online-keys.js';
import type { OnlineSections } from '../keys/online-types.js';

/**
 * The online lookups that got no answer (network, timeout, 5xx), each naming the service and the
 * cause. Not a verdict about the project: preflight (command and release step) ends with exit 3.
 */
export function unansweredLookups(online: OnlineSections | undefined): string[] {
  const out: string[] = [];
  const auth = online?.portal?.auth;
  if (typeof auth === 'object') out.push(`The staging API ${online?.portal?.groupId === undefined ? '' : `(search for ${online.portal.groupId}) `}could not be asked: ${auth.error}`);
  if (online?.keys !== undefined) out.push(...keyLookupErrors(online.keys).map((e) => `The ${e}`));
  return out;
}

export const unansweredFix =
  'Check the network and the service URLs (--staging-api-url, --keyserver-url, ...), then run again (--offline skips the online checks).';
