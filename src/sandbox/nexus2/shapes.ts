import type { DeploymentRecord } from '../portal/records.js';
import type { RepositoryRecord } from '../staging/repositories.js';
import type { Plain } from './xml.js';

/**
 * The Nexus 2 staging API's answers as plain values (JSON as is; XML through toXml with the item
 * names below). Field names follow the staging client's DTOs (StagingProfileDTO,
 * StagingProfileRepositoryDTO, StagingActivityDTO): XStream refuses unknown elements, so nothing
 * else is written. Pure: no I/O.
 */

/** XStream's item names (class aliases) of the arrays these shapes hold. */
export const xmlItems: Readonly<Record<string, string>> = {
  events: 'stagingActivityEvent',
  properties: 'stagingProperty',
};

/** The profile of a namespace: its id and name are the namespace (as on the real service). */
export function profileOf(base: string, namespace: string, resourceURI: string): Record<string, Plain> {
  return {
    resourceURI,
    id: namespace,
    name: namespace,
    repositoryType: 'maven2',
    repositoryTemplateId: 'default_hosted_release',
    repositoryTargetId: 'any',
    inProgress: false,
    order: 0,
    deployURI: `${base}/service/local/staging/deploy/maven2`,
    targetGroups: ['staging'],
    finishNotifyRoles: [],
    promotionNotifyRoles: [],
    dropNotifyRoles: [],
    closeRuleSets: ['central-portal-validation'],
    promoteRuleSets: [],
    promotionTargetRepository: 'releases',
    mode: 'BOTH',
    finishNotifyCreator: false,
    promotionNotifyCreator: false,
    dropNotifyCreator: false,
    autoStagingDisabled: false,
    repositoriesSearchable: false,
    properties: { '@class': 'linked-hash-map' },
  };
}

export type RepositoryType = 'open' | 'closed' | 'released';

/**
 * What a started repository is, seen through its portal deployment: open until closed; closed
 * while the deployment waits (VALIDATED) or is being published (transitioning); released once
 * PUBLISHED. A close that failed validation leaves it `open` with notifications, as a failed close
 * left a Nexus 2 repository: the clients then read the activity.
 */
export function stateOf(repo: RepositoryRecord, deployment: DeploymentRecord | undefined): { type: RepositoryType; transitioning: boolean; notifications: number } {
  if (repo.state === 'open') return { type: 'open', transitioning: false, notifications: 0 };
  if (deployment === undefined) return { type: 'closed', transitioning: false, notifications: 0 };
  switch (deployment.state) {
    case 'PUBLISHED':
      return { type: 'released', transitioning: false, notifications: 0 };
    case 'PUBLISHING':
      return { type: 'closed', transitioning: true, notifications: 0 };
    case 'FAILED': {
      const messages = deployment.components.reduce((n, c) => n + c.errors.length, 0) + (deployment.commonErrors?.length ?? 0);
      return { type: 'open', transitioning: false, notifications: Math.max(1, messages) };
    }
    default:
      return { type: 'closed', transitioning: false, notifications: 0 };
  }
}

/** `Thu Mar 21 02:06:30 UTC 2024`, the java.util.Date#toString form the DTO's *Date fields carry. */
function javaDate(iso: string): string {
  const [day, date, month, year, time] = new Date(iso).toUTCString().replace(',', '').split(' ');
  return `${day} ${month} ${date} ${time} UTC ${year}`;
}

/** `GET staging/repository/<id>` (StagingProfileRepositoryDTO); also the items of profile_repositories. */
export function repositoryOf(base: string, repo: RepositoryRecord, deployment: DeploymentRecord | undefined): Record<string, Plain> {
  const { type, transitioning, notifications } = stateOf(repo, deployment);
  const updated = repo.updatedAt ?? repo.createdAt;
  return {
    profileId: repo.profileId ?? repo.namespace,
    profileName: repo.profileId ?? repo.namespace,
    profileType: 'repository',
    repositoryId: repo.key,
    type,
    policy: 'release',
    userId: repo.user,
    userAgent: repo.userAgent ?? '',
    ipAddress: repo.ip,
    repositoryURI: `${base}/service/local/repositories/${repo.key}/content/`,
    created: repo.createdAt,
    createdDate: javaDate(repo.createdAt),
    createdTimestamp: Date.parse(repo.createdAt),
    updated,
    updatedDate: javaDate(updated),
    updatedTimestamp: Date.parse(updated),
    description: repo.description ?? '',
    provider: 'maven2',
    releaseRepositoryId: 'releases',
    releaseRepositoryName: 'Releases',
    notifications,
    transitioning,
  };
}

/** One event of an activity (StagingActivityEventDTO); severity 1 marks a failure. */
export interface ActivityEvent {
  timestamp: string;
  name: string;
  severity: number;
  properties: { name: string; value: string }[];
}

/** One activity (open, close, release, drop) of a started repository (StagingActivityDTO). */
export interface Activity {
  name: string;
  started: string;
  startedByUserId: string;
  startedByIpAddress: string;
  stopped?: string;
  events: ActivityEvent[];
}

export function event(name: string, properties: Record<string, string | string[]> = {}, severity = 0): ActivityEvent {
  const list = Object.entries(properties).flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).map((value) => ({ name: k, value })));
  return { timestamp: new Date().toISOString(), name, severity, properties: list };
}

/**
 * The rule events of a deployment's verdict: one `ruleFailed` per failing component (typeId the
 * component's purl, one `failureMessage` per portal sentence), which is what
 * nexus-staging-maven-plugin prints ("Rule ... failures") and JReleaser collects.
 */
function ruleEvents(deployment: DeploymentRecord): ActivityEvent[] {
  const events = [event('rulesEvaluate', { id: 'central-portal-validation', rule: 'central-portal-validation' })];
  const failing = deployment.components.filter((c) => c.errors.length > 0);
  for (const c of failing) events.push(event('ruleFailed', { typeId: c.purl, failureMessage: c.errors }, 1));
  if (deployment.commonErrors !== undefined && deployment.commonErrors.length > 0) {
    events.push(event('ruleFailed', { typeId: 'common', failureMessage: deployment.commonErrors }, 1));
  }
  if (deployment.state === 'FAILED') {
    events.push(event('rulesFailed', { id: 'central-portal-validation', failureCount: String(Math.max(1, failing.length)) }, 1));
  } else {
    events.push(event('rulesPassed', { id: 'central-portal-validation' }));
  }
  return events;
}

/** The close activity's events: the rules' verdict, then closed or close failed. */
export function closeEvents(deployment: DeploymentRecord): ActivityEvent[] {
  const ids = { id: deployment.repositoryKey, deploymentId: deployment.id };
  const closed = deployment.state === 'FAILED' ? event('repositoryCloseFailed', ids, 1) : event('repositoryClosed', ids);
  return [...ruleEvents(deployment), closed];
}

/**
 * The release activity's events: released, or (a publish refused because the version is public
 * already) the rules' verdict that says why, as a failed close shows it.
 */
export function releaseEvents(repositoryKey: string, deployment: DeploymentRecord): ActivityEvent[] {
  if (deployment.state === 'FAILED') return ruleEvents(deployment);
  return [event('repositoryReleased', { id: repositoryKey, deploymentId: deployment.id, state: deployment.state })];
}
