import { randomUUID } from 'node:crypto';
import type { Deployments } from '../portal/deployments.js';
import type { DeploymentRecord, PublishingType } from '../portal/records.js';
import type { Accounts, SandboxUser } from '../shared/accounts.js';
import { HttpError, portalError } from '../shared/http.js';
import { groupIdOfPath, inNamespace, isMetadata, repositoryKey } from '../shared/namespaces.js';
import type { StateFile } from '../shared/persistence.js';
import { FrozenLogError } from './staging-log.js';
import type { StagingStore, StreamedPut } from './store.js';

/** An implicit staging repository, keyed `<user>/<ip>/<namespace>--default-repository`. */
export interface RepositoryRecord {
  /** Internal id: the log's name under staging/ (the key holds `/` and addresses). */
  id: string;
  key: string;
  user: string;
  ip: string;
  namespace: string;
  state: 'open' | 'closed';
  description: string | null;
  portalDeploymentId: string | null;
  createdAt: string;
  /** Set on a repository started by id (the Nexus 2 staging API, src/sandbox/nexus2): its profile. */
  profileId?: string;
  /** Started repositories: what happened to them, as `staging/repository/<id>/activity` shows it. */
  activity?: unknown[];
  userAgent?: string;
  updatedAt?: string;
}

const notAuthorized = (): HttpError => portalError('File is not associated with an authorized namespace');
const notAllowed = (namespace: string): HttpError => portalError(`Namespace '${namespace}' is not allowed`);

/**
 * The OSSRH Staging API compatibility service's repositories (seed part 3, rows 1 to 3): PUTs
 * open one per (user, address, namespace); a manual upload call freezes it and hands the frozen
 * files to the portal. A PUT after that call opens a new repository.
 */
export class StagingRepositories {
  list: RepositoryRecord[];
  /** Repositories whose record is not yet on disk: a file PUT waits so a crash never orphans files. */
  private readonly recordSaved = new Map<string, Promise<void>>();

  constructor(
    private readonly accounts: Accounts,
    private readonly stateFile: StateFile,
    readonly store: StagingStore,
    private readonly portal: Deployments,
  ) {
    const saved = stateFile.saved('repositories');
    this.list = Array.isArray(saved) ? (saved as RepositoryRecord[]) : [];
    stateFile.own('repositories', () => this.list);
  }

  private open(user: string, ip: string, matches: (r: RepositoryRecord) => boolean): RepositoryRecord | undefined {
    // A started repository (profileId) takes files only by its id, never by (user, address, namespace).
    return this.list.find((r) => r.state === 'open' && r.profileId === undefined && r.user === user && r.ip === ip && matches(r));
  }

  /**
   * The namespace a deploy goes to: the longest namespace the user owns prefixing the group id
   * (for a user without a list, the group id's reverse domain: Accounts.ownNamespaceOf). Where
   * that is the group id itself, the namespace of an open repository already holding a parent
   * group (so a reactor lands in one repository).
   */
  private locate(user: SandboxUser, ip: string, segments: readonly string[]): { groupId: string; namespace: string } {
    const groupId = groupIdOfPath(segments);
    const own = groupId === undefined ? undefined : this.accounts.ownNamespaceOf(user, groupId);
    if (groupId === undefined || own === undefined) throw notAuthorized();
    if (user.namespaces !== undefined || own !== groupId) return { groupId, namespace: own };
    const parent = this.list
      .filter((r) => r.state === 'open' && r.profileId === undefined && r.user === user.name && r.ip === ip && inNamespace(groupId, r.namespace))
      .sort((a, b) => a.namespace.length - b.namespace.length)[0];
    return { groupId, namespace: parent?.namespace ?? groupId };
  }

  /** Checks a PUT before its body is read (auth is already done): namespace and block. */
  checkPut(user: SandboxUser, ip: string, segments: readonly string[]): void {
    const { groupId } = this.locate(user, ip, segments);
    const blocked = this.portal.blockedError(user, (ns) => inNamespace(groupId, ns));
    if (blocked !== undefined) throw blocked;
  }

  async put(user: SandboxUser, ip: string, segments: readonly string[], data: Uint8Array | StreamedPut): Promise<void> {
    this.checkPut(user, ip, segments);
    const { namespace } = this.locate(user, ip, segments);
    for (;;) {
      let repo = this.open(user.name, ip, (r) => r.namespace === namespace);
      if (repo === undefined) {
        repo = {
          id: randomUUID(),
          key: repositoryKey(user.name, ip, namespace),
          user: user.name,
          ip,
          namespace,
          state: 'open',
          description: null,
          portalDeploymentId: null,
          createdAt: new Date().toISOString(),
        };
        this.list.push(repo);
        const id = repo.id;
        const saved = this.stateFile.save();
        this.recordSaved.set(id, saved);
        void saved.finally(() => this.recordSaved.delete(id)).catch(() => undefined);
      }
      await this.recordSaved.get(repo.id);
      // A manual upload call may have frozen it meanwhile: then this file opens a new one.
      if (repo.state !== 'open') continue;
      // maven-metadata.xml opens the repository but is not stored, as the compatibility service does.
      if (isMetadata(segments[segments.length - 1]!)) return;
      try {
        await this.store.put(repo.id, segments, data);
      } catch (error) {
        // Handed over while this file was being written: it opens a new repository, as a later PUT does.
        if (error instanceof FrozenLogError) continue;
        throw error;
      }
      return;
    }
  }

  /** A path for a PUT's body while it arrives; the caller removes it. */
  scratch(): string {
    return this.portal.scratch('.put');
  }

  async get(user: SandboxUser, ip: string, segments: readonly string[]): Promise<Buffer | undefined> {
    const groupId = groupIdOfPath(segments);
    if (groupId === undefined) return undefined;
    const repo = this.open(user.name, ip, (r) => inNamespace(groupId, r.namespace));
    return repo === undefined ? undefined : this.store.get(repo.id, segments);
  }

  /** POST /manual/upload/defaultRepository/<ns>: the repository of (user, source address, ns). */
  uploadDefault(user: SandboxUser, ip: string, namespace: string, type: PublishingType): Promise<DeploymentRecord> {
    if (!this.accounts.allows(user, namespace)) throw notAllowed(namespace);
    return this.portal.locks.run(namespace, async () => {
      const blocked = this.portal.blockedError(user, (ns) => inNamespace(namespace, ns) || inNamespace(ns, namespace));
      if (blocked !== undefined) throw blocked;
      const repo =
        this.open(user.name, ip, (r) => r.namespace === namespace) ?? this.open(user.name, ip, (r) => inNamespace(r.namespace, namespace));
      if (repo === undefined) throw portalError(`No repository found for ${repositoryKey(user.name, ip, namespace)}`);
      return this.handOver(repo, type);
    });
  }

  /** POST /manual/upload/repository/<key>: from any address. */
  uploadByKey(user: SandboxUser, key: string, type: PublishingType): Promise<DeploymentRecord> {
    const namespace = this.namespaceOfKey(user, key);
    return this.portal.locks.run(namespace, async () => {
      const repo = this.list.find((r) => r.key === key && r.user === user.name && r.state === 'open');
      if (repo === undefined) throw this.noRepository(user, key);
      const blocked = this.portal.blockedError(user, (ns) => inNamespace(repo.namespace, ns) || inNamespace(ns, repo.namespace));
      if (blocked !== undefined) throw blocked;
      return this.handOver(repo, type);
    });
  }

  /**
   * Freezes the repository (its files read synchronously, its state closed in the same tick, so
   * no PUT can slip in) and hands the frozen files to the portal (seed part 3, rows 2 and 3).
   */
  private async handOver(repo: RepositoryRecord, type: PublishingType): Promise<DeploymentRecord> {
    const deployment = await this.freezeAndValidate(repo, type);
    if (deployment.state === 'FAILED') throw new HttpError(400, { error: deployment.failure, deploymentId: deployment.id });
    if (type === 'automatic') await this.portal.publishDeployment(deployment);
    return deployment;
  }

  /**
   * The handover without its answer: freezes, validates, records the deployment (VALIDATED or
   * FAILED) and links it; the caller decides what a FAILED one means (the Nexus 2 close shows it
   * as activity, the manual upload call as a 400). The caller holds the namespace's lock.
   */
  async freezeAndValidate(repo: RepositoryRecord, type: PublishingType = 'user_managed'): Promise<DeploymentRecord> {
    const files = this.store.snapshot(repo.id);
    if (files.size === 0) {
      this.store.thaw(repo.id);
      throw portalError('No objects found in the repository');
    }
    repo.state = 'closed';
    let deployment: DeploymentRecord;
    try {
      deployment = await this.portal.create({ user: repo.user, namespace: repo.namespace, repositoryKey: repo.key, files }, type);
    } catch (error) {
      repo.state = 'open';
      this.store.thaw(repo.id);
      throw error;
    }
    this.portal.record(deployment);
    repo.portalDeploymentId = deployment.id;
    await this.stateFile.save();
    await this.store.remove(repo.id);
    return deployment;
  }

  search(user: SandboxUser, ip: string, query: URLSearchParams): RepositoryRecord[] {
    const byIp = query.get('ip') ?? 'client';
    const profile = query.get('profile_id');
    const state = query.get('state');
    if (profile !== null && profile !== '' && !this.accounts.allows(user, profile)) throw notAllowed(profile);
    return this.list.filter(
      (r) =>
        r.user === user.name &&
        (byIp === 'any' || r.ip === ip) &&
        (profile === null || profile === '' || inNamespace(r.namespace, profile)) &&
        (state === null || state === '' || r.state === state),
    );
  }

  /**
   * DELETE /manual/drop/repository/<key>: an open repository (its files go), or a closed one not
   * yet published (only the staging record goes: the portal deployment made from it stays).
   */
  dropRepository(user: SandboxUser, key: string): Promise<void> {
    const namespace = this.namespaceOfKey(user, key);
    return this.portal.locks.run(namespace, async () => {
      const candidates = this.list.filter((r) => r.key === key && r.user === user.name);
      const repo =
        candidates.find((r) => r.state === 'open') ??
        [...candidates].reverse().find((r) => this.portal.find(r.portalDeploymentId)?.state !== 'PUBLISHED');
      if (repo === undefined) throw this.noRepository(user, key);
      const d = this.portal.find(repo.portalDeploymentId);
      if (d !== undefined && (d.state === 'PUBLISHING' || d.state === 'PUBLISHED')) throw portalError(`Repository ${key} is already released`);
      this.list = this.list.filter((r) => r !== repo);
      await this.stateFile.save();
      await this.store.remove(repo.id);
    });
  }

  /** The namespace a repository key names, refused when it is not the caller's. */
  private namespaceOfKey(user: SandboxUser, key: string): string {
    const namespace = /\/([^/]+)--default-repository$/.exec(key)?.[1];
    if (namespace === undefined) throw this.noRepository(user, key);
    if (!this.accounts.allows(user, namespace)) throw notAllowed(namespace);
    return namespace;
  }

  /** "No repository found", echoing the key only when it is the caller's own (never another's name). */
  private noRepository(user: SandboxUser, key: string): HttpError {
    return portalError(`No repository found for ${key.startsWith(`${user.name}/`) ? key : 'that key under this token'}`);
  }

  /**
   * After a restart: reopen repositories a crash closed without a deployment (the upload call
   * never completed), drop logs of repositories no record knows, cut torn log tails. Returns what
   * was repaired.
   */
  async repair(): Promise<string[]> {
    const done: string[] = [];
    for (const r of this.list.filter((x) => x.state === 'closed' && this.portal.find(x.portalDeploymentId) === undefined && x.portalDeploymentId === null)) {
      r.state = 'open';
      done.push(`reopened staging repository ${r.key} (its upload call was interrupted)`);
    }
    const open = new Set(this.list.filter((r) => r.state === 'open').map((r) => r.id));
    for (const id of await this.store.onDisk()) {
      if (!open.has(id)) {
        await this.store.remove(id);
        done.push(`removed the files of staging repository ${id}, handed over or never recorded`);
        continue;
      }
      const cut = this.store.check(id);
      if (cut > 0) done.push(`cut ${cut} bytes of torn upload off staging repository ${id}`);
    }
    return done;
  }

  async reset(): Promise<void> {
    this.list = [];
    await this.store.clear();
  }
}
