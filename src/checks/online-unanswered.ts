import { EnvironmentError } from '../core/errors.js';
import { keyLookupErrors } from './online-keys.js';
import type { ProjectFacts } from './facts.js';
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

/**
 * The exit-3 failure of an audit whose services could not all be asked (reads gathered earlier,
 * online lookups left unanswered), or undefined. Shared by `preflight` and `preflight --fix`, so
 * a fix run never turns an unanswered lookup into a pass.
 */
export function unreachableFailure(facts: ProjectFacts, offline: boolean, onlineChecked: boolean): EnvironmentError | undefined {
  const unreachable = [...(facts.unreachable ?? []), ...(offline || !onlineChecked ? [] : unansweredLookups(facts.online as OnlineSections | undefined))];
  return unreachable.length === 0 ? undefined : new EnvironmentError(unreachable.join('\n'), { kind: 'service-unreachable', fix: unansweredFix });
}
