import { randomUUID } from 'node:crypto';
import { groupIdProblem } from '../../core/identifiers.js';
import type { Deployments } from '../portal/deployments.js';
import type { DeploymentRecord } from '../portal/records.js';
import type { Accounts, SandboxUser } from '../shared/accounts.js';
import { HttpError, portalError } from '../shared/http.js';
import { groupIdOfPath, inNamespace, isMetadata } from '../shared/namespaces.js';
import type { StateFile } from '../shared/persistence.js';
import type { RepositoryRecord, StagingRepositories } from '../staging/repositories.js';
import { FrozenLogError } from '../staging/staging-log.js';
import type { StreamedPut } from '../staging/store.js';
import { closeEvents, event, releaseEvents, stateOf, type Activity, type ActivityEvent } from './shapes.js';
import { withoutControls } from './xml.js';

export interface Nexus2Options {
  /** A close publishes at once (AUTOMATIC), as Sonatype's prototype did; default: it waits VALIDATED. */
  closePublishes?: boolean;
}

/** A Nexus 2 error: `{"errors":[{"id":"*","msg":…}]}` or `<nexus-error>` (the routes render it). */
export function nexusError(status: number, msg: string): HttpError {
  return new HttpError(status, { error: msg, nexus: true });
}

/**
 * The Nexus 2 staging workflow (issue 28) over the staging service's repositories: a repository
 * started on a profile (the namespace) takes files by its id from any address; closing hands it to
 * the portal as a deployment "<id> (via OSSRH API Proxy)" validated by the same rules; promote
 * publishes it; drop forgets the staging repository, never the portal deployment made from it.
 */
export class Nexus2Staging {
  constructor(
    private readonly accounts: Accounts,
    private readonly staging: StagingRepositories,
    private readonly portal: Deployments,
    private readonly stateFile: StateFile,
    private readonly options: Nexus2Options = {},
  ) {}

  /** The profiles a user sees: its namespaces, else (an account without a list) those it used. */
  profiles(user: SandboxUser): string[] {
    if (user.namespaces !== undefined) return [...user.namespaces];
    return [...new Set(this.staging.list.filter((r) => r.user === user.name).map((r) => r.namespace))];
  }

  /** `profile_evaluate?g=`: the profile a group id deploys to (the longest namespace owning it). */
  evaluate(user: SandboxUser, groupId: string): string[] {
    const own = groupIdProblem(groupId) === undefined ? this.accounts.ownNamespaceOf(user, groupId) : undefined;
    return own === undefined ? [] : [own];
  }

  /**
   * A profile id the caller may use (its namespace), else 404 as for an unknown profile. A profile
   * is a namespace, so only group-id syntax names one: an account without a namespace list would
   * otherwise start repositories on `../../etc`, `a/b` or a control character.
   */
  profile(user: SandboxUser, id: string): string {
    if (groupIdProblem(id) !== undefined || !this.accounts.allows(user, id) || (user.namespaces !== undefined && !user.namespaces.includes(id))) {
      throw nexusError(404, `No such profile: ${id}`);
    }
    return id;
  }

  async start(user: SandboxUser, ip: string, userAgent: string, profileId: string, description: string): Promise<RepositoryRecord> {
    const namespace = this.profile(user, profileId);
    this.refuseBlocked(user, namespace);
    const now = new Date().toISOString();
    const repo: RepositoryRecord = {
      id: randomUUID(),
      key: '',
      user: user.name,
      ip,
      namespace,
      state: 'open',
      description,
      portalDeploymentId: null,
      createdAt: now,
      updatedAt: now,
      profileId: namespace,
      // A header may carry C1 controls (Node passes bytes 0x80-0x9F through as latin1); answers echo it.
      userAgent: withoutControls(userAgent).slice(0, 200),
    };
    repo.key = `${namespace}--${repo.id}`;
    repo.activity = [this.activity('open', user, ip, [event('repositoryCreated', { id: repo.key, user: user.name, ip })], true)];
    this.staging.list.push(repo);
    await this.stateFile.save();
    return repo;
  }

  /** A started repository of the caller; anyone else's (or an unknown id) is 404. */
  find(user: SandboxUser, repositoryId: string): RepositoryRecord {
    const repo = this.staging.list.find((r) => r.profileId !== undefined && r.key === repositoryId && r.user === user.name);
    if (repo === undefined) throw nexusError(404, `No such repository: ${repositoryId}`);
    return repo;
  }

  deploymentOf(repo: RepositoryRecord): DeploymentRecord | undefined {
    return this.portal.find(repo.portalDeploymentId);
  }

  mine(user: SandboxUser, profileId?: string): RepositoryRecord[] {
    return this.staging.list.filter((r) => r.profileId !== undefined && r.user === user.name && (profileId === undefined || r.profileId === profileId));
  }

  /** Checks a PUT before its body is read: the repository, its state, the path's namespace, the block. */
  checkPut(user: SandboxUser, repositoryId: string, segments: readonly string[]): RepositoryRecord {
    const repo = this.find(user, repositoryId);
    const groupId = groupIdOfPath(segments);
    const own = groupId === undefined ? undefined : this.accounts.ownNamespaceOf(user, groupId);
    if (groupId === undefined || own === undefined || !inNamespace(groupId, repo.namespace)) {
      throw portalError('File is not associated with an authorized namespace');
    }
    if (repo.state !== 'open') throw nexusError(400, `Repository ${repo.key} is ${stateOf(repo, this.deploymentOf(repo)).type === 'open' ? 'failed' : 'closed'} and takes no more files`);
    this.refuseBlocked(user, groupId);
    return repo;
  }

  async put(user: SandboxUser, repositoryId: string, segments: readonly string[], data: Uint8Array | StreamedPut): Promise<void> {
    const repo = this.checkPut(user, repositoryId, segments);
    // maven-metadata.xml is accepted and not stored, as on the real service.
    if (isMetadata(segments[segments.length - 1]!)) return;
    try {
      await this.staging.store.put(repo.id, segments, data);
    } catch (error) {
      if (error instanceof FrozenLogError) throw nexusError(400, `Repository ${repo.key} is being closed and takes no more files`);
      throw error;
    }
  }

  get(user: SandboxUser, repositoryId: string, segments: readonly string[]): Buffer | undefined {
    const repo = this.find(user, repositoryId);
    return repo.state === 'open' ? this.staging.store.get(repo.id, segments) : undefined;
  }

  /**
   * Closes each repository: its files go to the portal as a user-managed deployment (AUTOMATIC
   * with closePublishes). A failed validation does not throw: it is the repository's state and
   * activity. Returns the deployments, in order.
   */
  async close(user: SandboxUser, ip: string, ids: readonly string[]): Promise<DeploymentRecord[]> {
    const repos = ids.map((id) => this.find(user, id));
    const out: DeploymentRecord[] = [];
    for (const repo of repos) {
      out.push(
        await this.portal.locks.run(repo.namespace, async () => {
          if (repo.state !== 'open') throw nexusError(400, `Repository ${repo.key} is not open: it was closed already`);
          this.refuseBlocked(user, repo.namespace);
          const type = this.options.closePublishes === true ? 'automatic' : 'user_managed';
          const started = this.activity('close', user, ip, []);
          const d = await this.staging.freezeAndValidate(repo, type);
          started.events.push(...closeEvents(d));
          this.finish(repo, started);
          await this.stateFile.save();
          if (d.state === 'VALIDATED' && type === 'automatic') await this.portal.publishDeployment(d);
          return d;
        }),
      );
    }
    return out;
  }

  /**
   * Publishes each closed repository's deployment (already PUBLISHED: nothing to do). A publish
   * the portal refused (the version is public already) is a 400 with the portal's failure text,
   * as a failed bulk close is, and shows in the release activity.
   */
  async promote(user: SandboxUser, ip: string, ids: readonly string[]): Promise<void> {
    const repos = ids.map((id) => this.find(user, id));
    for (const repo of repos) {
      const d = this.deploymentOf(repo);
      const { type } = stateOf(repo, d);
      if (repo.state === 'open' || d === undefined || d.state === 'FAILED') {
        throw nexusError(400, `Repository ${repo.key} is ${repo.state === 'open' && d === undefined ? 'open' : `${type} without a validated deployment`} and cannot be released`);
      }
      const done = d.state === 'VALIDATED' ? await this.portal.publish(user, d.id) : d;
      this.finish(repo, this.activity('release', user, ip, releaseEvents(repo.key, done)));
      await this.stateFile.save();
      if (done.state === 'FAILED') throw nexusError(400, done.failure ?? 'Deployment reached an unexpected status: Failed');
    }
  }

  /** Forgets each staging repository (its files if open); a portal deployment made from it stays. */
  async drop(user: SandboxUser, ids: readonly string[]): Promise<void> {
    const repos = ids.map((id) => this.find(user, id));
    for (const repo of repos) {
      await this.portal.locks.run(repo.namespace, async () => {
        this.staging.list = this.staging.list.filter((r) => r !== repo);
        await this.stateFile.save();
        await this.staging.store.remove(repo.id);
      });
    }
  }

  private refuseBlocked(user: SandboxUser, namespace: string): void {
    const blocked = this.portal.blockedError(user, (ns) => inNamespace(namespace, ns) || inNamespace(ns, namespace));
    if (blocked !== undefined) throw blocked;
  }

  private activity(name: string, user: SandboxUser, ip: string, events: ActivityEvent[], stopped = false): Activity {
    const now = new Date().toISOString();
    return { name, started: now, startedByUserId: user.name, startedByIpAddress: ip, ...(stopped ? { stopped: now } : {}), events };
  }

  private finish(repo: RepositoryRecord, activity: Activity): void {
    activity.stopped = new Date().toISOString();
    repo.activity = [...(repo.activity ?? []), activity];
    repo.updatedAt = activity.stopped;
  }
}
