import { randomUUID } from 'node:crypto';
import type { FileStore } from './file-store.js';
import { HttpError, portalError } from './http-util.js';
import { groupIdOfPath, inNamespace, isMetadata, pomPath, repositoryKey } from './namespaces.js';
import type {
  ComponentRecord,
  DeploymentRecord,
  PublishingType,
  RepositoryRecord,
  SandboxStateData,
  StateFile,
} from './state.js';
import type { SandboxRules } from './rules.js';

export interface SandboxUser {
  name: string;
  password: string;
  /** undefined = every namespace */
  namespaces?: string[];
}

/**
 * The staging service and the portal's deployments: seed part 3's state table and part 7's
 * errors. HTTP shapes live in the route files; this class holds the rules of the game.
 */
export class SandboxService {
  /** Repositories whose record is not yet on disk: a file PUT waits so a crash never orphans files. */
  private readonly repoSaved = new Map<string, Promise<void>>();

  constructor(
    readonly users: readonly SandboxUser[],
    public state: SandboxStateData,
    readonly files: FileStore,
    private readonly stateFile: StateFile,
    private readonly rules: SandboxRules,
  ) {}

  authenticate(name: string, password: string): SandboxUser | undefined {
    return this.users.find((u) => u.name === name && u.password === password);
  }

  save(): Promise<void> {
    return this.stateFile.save();
  }

  /** The failed deployment that blocks `groupId`, if any (any user: the namespace is shared). */
  private blocker(related: (namespace: string) => boolean): DeploymentRecord | undefined {
    return this.state.deployments.find((d) => d.state === 'FAILED' && related(d.namespace));
  }

  private blockedError(d: DeploymentRecord): HttpError {
    return portalError(
      `Repository ${d.repositoryKey} is in state closed/failed: deployment ${d.id} failed validation and must be dropped before a new release can be made`,
    );
  }

  private openRepository(user: string, ip: string, matches: (r: RepositoryRecord) => boolean): RepositoryRecord | undefined {
    return this.state.repositories.find((r) => r.state === 'open' && r.user === user && r.ip === ip && matches(r));
  }

  /**
   * The namespace a deploy goes to: the longest allowed namespace prefixing the group id. A user
   * allowed everything gets the namespace of an open repository already holding a parent group,
   * else the group id itself (so a reactor sharing one group id lands in one repository).
   */
  private namespaceFor(user: SandboxUser, ip: string, groupId: string): string {
    if (user.namespaces === undefined) {
      const open = this.state.repositories
        .filter((r) => r.state === 'open' && r.user === user.name && r.ip === ip && inNamespace(groupId, r.namespace))
        .sort((a, b) => a.namespace.length - b.namespace.length)[0];
      return open?.namespace ?? groupId;
    }
    const allowed = user.namespaces.filter((ns) => inNamespace(groupId, ns)).sort((a, b) => b.length - a.length)[0];
    if (allowed === undefined) throw portalError('File is not associated with an authorized namespace');
    return allowed;
  }

  private locate(user: SandboxUser, ip: string, segments: readonly string[]): { groupId: string; namespace: string } {
    const groupId = groupIdOfPath(segments);
    if (groupId === undefined) throw portalError('File is not associated with an authorized namespace');
    return { groupId, namespace: this.namespaceFor(user, ip, groupId) };
  }

  /** Checks a PUT before its body is read (auth is already done): namespace and block. */
  checkPut(user: SandboxUser, ip: string, segments: readonly string[]): void {
    const { groupId } = this.locate(user, ip, segments);
    const blocking = this.blocker((ns) => inNamespace(groupId, ns));
    if (blocking !== undefined) throw this.blockedError(blocking);
  }

  async put(user: SandboxUser, ip: string, segments: readonly string[], data: Uint8Array): Promise<void> {
    this.checkPut(user, ip, segments);
    const { namespace } = this.locate(user, ip, segments);
    let repo = this.openRepository(user.name, ip, (r) => r.namespace === namespace);
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
      this.state.repositories.push(repo);
      const saved = this.save();
      this.repoSaved.set(repo.id, saved);
      void saved.finally(() => this.repoSaved.delete(repo!.id)).catch(() => undefined);
    }
    await this.repoSaved.get(repo.id);
    // maven-metadata.xml opens the repository but is not stored, as the compatibility service does.
    if (!isMetadata(segments[segments.length - 1]!)) this.files.putStaging(repo.id, segments, data);
  }

  async get(user: SandboxUser, ip: string, segments: readonly string[]): Promise<Buffer | undefined> {
    const groupId = groupIdOfPath(segments);
    if (groupId === undefined) return undefined;
    const repo = this.openRepository(user.name, ip, (r) => inNamespace(groupId, r.namespace));
    return repo === undefined ? undefined : this.files.getStaging(repo.id, segments);
  }

  /** POST /manual/upload/defaultRepository/<ns>: the repository of (user, source address, ns). */
  async uploadDefault(user: SandboxUser, ip: string, namespace: string, type: PublishingType): Promise<DeploymentRecord> {
    const blocking = this.blocker((ns) => inNamespace(namespace, ns) || inNamespace(ns, namespace));
    if (blocking !== undefined) throw this.blockedError(blocking);
    const repo =
      this.openRepository(user.name, ip, (r) => r.namespace === namespace) ??
      this.openRepository(user.name, ip, (r) => inNamespace(r.namespace, namespace));
    if (repo === undefined) throw portalError(`No repository found for ${repositoryKey(user.name, ip, namespace)}`);
    return this.transfer(repo, type);
  }

  /** POST /manual/upload/repository/<key>: from any address. */
  async uploadByKey(user: SandboxUser, key: string, type: PublishingType): Promise<DeploymentRecord> {
    const repo = this.state.repositories.find((r) => r.key === key && r.user === user.name && r.state === 'open');
    if (repo === undefined) throw portalError(`No repository found for ${key}`);
    const blocking = this.blocker((ns) => inNamespace(repo.namespace, ns) || inNamespace(ns, repo.namespace));
    if (blocking !== undefined) throw this.blockedError(blocking);
    return this.transfer(repo, type);
  }

  /** Hands a repository to the portal and validates it at once (seed part 3, rows 2 and 3). */
  private async transfer(repo: RepositoryRecord, type: PublishingType): Promise<DeploymentRecord> {
    const files = this.files.readRepository(repo.id);
    if (files.size === 0) throw portalError('No objects found in the repository');
    const verdicts = await this.rules.validateDeployment(files, {
      fetchPom: async (g, a, v) => (await this.files.getPublic(pomPath(g, a, v)))?.toString('utf8'),
      isPublished: (g, a, v) => this.files.publicExists(pomPath(g, a, v)),
      verifySignature: this.rules.createVerifier(),
    });
    if (verdicts.length === 0) throw portalError('No objects found in the repository');
    const components: ComponentRecord[] = verdicts.map((v) => ({
      purl: v.purl,
      groupId: v.groupId,
      artifactId: v.artifactId,
      version: v.version,
      packaging: v.packaging,
      files: [...v.files],
      errors: v.violations.map((x) => x.message),
    }));
    const failed = components.some((c) => c.errors.length > 0);
    const deployment: DeploymentRecord = {
      id: randomUUID(),
      name: `${repo.key} (via OSSRH API Proxy)`,
      repositoryId: repo.id,
      repositoryKey: repo.key,
      namespace: repo.namespace,
      user: repo.user,
      state: failed ? 'FAILED' : 'VALIDATED',
      publishingType: type,
      components,
      createdAt: new Date().toISOString(),
      ...(failed ? { failure: this.rules.formatFailure(verdicts) } : {}),
    };
    repo.state = 'closed';
    repo.portalDeploymentId = deployment.id;
    this.state.deployments.push(deployment);
    await this.save();
    if (failed) throw new HttpError(400, { error: deployment.failure, deploymentId: deployment.id });
    if (type === 'automatic') await this.publishDeployment(deployment);
    return deployment;
  }

  search(user: SandboxUser, ip: string, query: URLSearchParams): RepositoryRecord[] {
    const byIp = query.get('ip') ?? 'client';
    const profile = query.get('profile_id');
    const state = query.get('state');
    return this.state.repositories.filter(
      (r) =>
        r.user === user.name &&
        (byIp === 'any' || r.ip === ip) &&
        (profile === null || profile === '' || inNamespace(r.namespace, profile)) &&
        (state === null || state === '' || r.state === state),
    );
  }

  /** DELETE /manual/drop/repository/<key>: an open repository, or a closed one not yet published. */
  async dropRepository(user: SandboxUser, key: string): Promise<void> {
    const candidates = this.state.repositories.filter((r) => r.key === key && r.user === user.name);
    const repo =
      candidates.find((r) => r.state === 'open') ??
      candidates.reverse().find((r) => this.deployment(r.portalDeploymentId)?.state !== 'PUBLISHED');
    if (repo === undefined) throw portalError(`No repository found for ${key}`);
    const d = this.deployment(repo.portalDeploymentId);
    if (d !== undefined && (d.state === 'PUBLISHING' || d.state === 'PUBLISHED')) {
      throw portalError(`Repository ${key} is already released`);
    }
    await this.forget(repo, d);
  }

  private async forget(repo: RepositoryRecord | undefined, d: DeploymentRecord | undefined): Promise<void> {
    this.state.repositories = this.state.repositories.filter((r) => r !== repo);
    this.state.deployments = this.state.deployments.filter((x) => x !== d);
    await this.save();
    if (repo !== undefined) await this.files.removeRepository(repo.id);
  }

  deployment(id: string | null | undefined): DeploymentRecord | undefined {
    return id === null || id === undefined ? undefined : this.state.deployments.find((d) => d.id === id);
  }

  /** A deployment as its owner sees it; someone else's is "not found". */
  ownDeployment(user: SandboxUser, id: string): DeploymentRecord {
    const d = this.deployment(id);
    if (d === undefined || d.user !== user.name) throw new HttpError(404, { error: `Deployment ${id} not found` });
    return d;
  }

  async publish(user: SandboxUser, id: string): Promise<void> {
    const d = this.ownDeployment(user, id);
    if (d.state !== 'VALIDATED') throw new HttpError(400, { error: `Deployment ${id} is ${d.state} and cannot be published` });
    await this.publishDeployment(d);
  }

  /** PUBLISHING is on disk before the copy starts, so a restart can finish an interrupted one. */
  private async publishDeployment(d: DeploymentRecord): Promise<void> {
    d.state = 'PUBLISHING';
    await this.save();
    await this.files.publish(d.repositoryId);
    d.state = 'PUBLISHED';
    await this.save();
    await this.files.removeRepository(d.repositoryId);
  }

  async dropDeployment(user: SandboxUser, id: string): Promise<void> {
    const d = this.ownDeployment(user, id);
    if (d.state !== 'VALIDATED' && d.state !== 'FAILED') {
      throw new HttpError(400, { error: `Deployment ${id} is ${d.state} and cannot be dropped` });
    }
    await this.forget(
      this.state.repositories.find((r) => r.id === d.repositoryId),
      d,
    );
  }

  async isPublished(groupId: string, artifactId: string, version: string): Promise<boolean> {
    return this.files.publicExists(pomPath(groupId, artifactId, version));
  }

  /** After a restart: finish publications a crash interrupted. */
  async resume(): Promise<void> {
    for (const d of this.state.deployments) if (d.state === 'PUBLISHING') await this.publishDeployment(d);
  }

  async reset(): Promise<void> {
    this.state.repositories = [];
    this.state.deployments = [];
    await this.save();
    await this.files.clear();
  }
}
