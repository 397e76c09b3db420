import { randomUUID } from 'node:crypto';
import { ruleText } from '../../core/validation/texts.js';
import type { SizedDeploymentFile } from '../../core/validation/types.js';
import type { SandboxUser } from '../shared/accounts.js';
import { HttpError, portalError } from '../shared/http.js';
import { inNamespace, pomPath } from '../shared/namespaces.js';
import { KeyedLock, type StateFile } from '../shared/persistence.js';
import type { PublicStore } from '../repo/public-store.js';
import type { BundleStore } from './bundles.js';
import { limitExceeded, type PublishingLimits } from './limits.js';
import type { ComponentRecord, DeploymentRecord, PublishingType } from './records.js';
import type { SandboxRules } from './rules.js';

/** What the staging service hands over at a manual upload call: the frozen repository. */
export interface Handover {
  user: string;
  namespace: string;
  repositoryKey: string;
  /** Read when validated and copied, not before (a bundle of any size). */
  files: ReadonlyMap<string, SizedDeploymentFile>;
}

/**
 * The portal's deployments (seed part 3's state table, part 7's errors): created from a frozen
 * staging repository, validated at once, then published or dropped. A deployment owns a copy of
 * its files (BundleStore), so the staging repository it came from can be dropped independently.
 */
export class Deployments {
  list: DeploymentRecord[];
  /** Publications write to the public repository one at a time (publishDeployment says why). */
  private readonly publicRepoTurn = new KeyedLock();

  constructor(
    private readonly stateFile: StateFile,
    private readonly bundles: BundleStore,
    private readonly publicRepo: PublicStore,
    private readonly rules: SandboxRules,
    readonly locks: KeyedLock,
    private readonly limits: PublishingLimits | undefined,
  ) {
    const saved = stateFile.saved('deployments');
    this.list = Array.isArray(saved) ? (saved as DeploymentRecord[]) : [];
    stateFile.own('deployments', () => this.list);
  }

  find(id: string | null | undefined): DeploymentRecord | undefined {
    return id === null || id === undefined ? undefined : this.list.find((d) => d.id === id);
  }

  /**
   * The 400 for a namespace blocked by `user`'s failed deployment in a related namespace. Only
   * the caller's own deployments count: the text names the repository, and a namespace has one
   * owner anyway.
   */
  blockedError(user: SandboxUser, related: (namespace: string) => boolean): HttpError | undefined {
    const d = this.list.find((x) => x.state === 'FAILED' && x.user === user.name && related(x.namespace));
    if (d === undefined) return undefined;
    return portalError(
      `Repository ${d.repositoryKey} is in state closed/failed: deployment ${d.id} failed validation and must be dropped before a new release can be made`,
    );
  }

  /**
   * Validates a handover and writes its files; the caller then records it (record()) in the same
   * tick as it links the staging repository, so no save can catch one without the other.
   */
  async create(input: Handover, type: PublishingType): Promise<DeploymentRecord> {
    const bytes = [...input.files.values()].reduce((n, f) => n + f.size, 0);
    const over = limitExceeded(this.limits, this.list, { user: input.user, namespace: input.namespace }, { fileCount: input.files.size, bytes });
    if (over !== undefined) throw over;
    const verdicts = await this.rules.validateDeployment(input.files, {
      fetchPom: async (g, a, v) => (await this.publicRepo.get(pomPath(g, a, v)))?.toString('utf8'),
      isPublished: (g, a, v) => this.publicRepo.exists(pomPath(g, a, v)),
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
      name: `${input.repositoryKey} (via OSSRH API Proxy)`,
      repositoryKey: input.repositoryKey,
      namespace: input.namespace,
      user: input.user,
      state: failed ? 'FAILED' : 'VALIDATED',
      publishingType: type,
      components,
      fileCount: input.files.size,
      bytes,
      createdAt: new Date().toISOString(),
      ...(failed ? { failure: this.rules.formatFailure(verdicts) } : {}),
    };
    await this.bundles.write(deployment.id, input.files);
    return deployment;
  }

  /** A path for an upload's body while it arrives; the caller removes it. */
  scratch(extension: string): string {
    return this.bundles.scratch(extension);
  }

  record(d: DeploymentRecord): void {
    this.list.push(d);
  }

  /** Records a deployment made without a staging repository (the Publisher API upload) and saves. */
  async adopt(d: DeploymentRecord): Promise<void> {
    this.record(d);
    await this.stateFile.save();
  }

  /** A deployment as its owner sees it; someone else's is "not found". */
  own(user: SandboxUser, id: string): DeploymentRecord {
    const d = this.find(id);
    if (d === undefined || d.user !== user.name) throw new HttpError(404, { error: `Deployment ${id} not found` });
    return d;
  }

  /** Publishes (the caller's VALIDATED deployment); returns it PUBLISHED, or FAILED if publishDeployment refused it. */
  async publish(user: SandboxUser, id: string): Promise<DeploymentRecord> {
    const d = this.own(user, id);
    await this.locks.run(d.namespace, async () => {
      if (d.state !== 'VALIDATED') throw new HttpError(400, { error: `Deployment ${id} is ${d.state} and cannot be published` });
      // The organization's count spans its namespaces: its own turn, so two of them cannot both pass.
      await this.locks.run(`organization:${d.user}`, async () => {
        const over = limitExceeded(this.limits, this.list, { user: d.user, namespace: d.namespace }, { fileCount: d.fileCount ?? 0, bytes: d.bytes ?? 0 });
        if (over !== undefined) throw over;
        await this.publishDeployment(d);
      });
    });
    return d;
  }

  /**
   * Publishes a VALIDATED deployment unless a version of it is public already (DESIGN §8:
   * published files are immutable): validation checked that when the deployment was made, but a
   * second deployment of the version may have been validated before the first was published. The
   * check and the copy take the public repository's turn, not only the namespace's lock the
   * caller holds: one group id can be deployed through two namespaces (org.example and
   * org.example.lib), so two publications of a version could otherwise both pass the check.
   */
  async publishDeployment(d: DeploymentRecord): Promise<void> {
    await this.publicRepoTurn.run('', async () => {
      const existing: ComponentRecord[] = [];
      for (const c of d.components) if (await this.isPublic(c)) existing.push(c);
      if (existing.length === 0) await this.copyOut(d);
      else await this.refuseExisting(d, existing);
    });
  }

  /** Whether any file of the component, or its POM, is in the public repository (seed included). */
  private async isPublic(c: ComponentRecord): Promise<boolean> {
    if (await this.publicRepo.exists(pomPath(c.groupId, c.artifactId, c.version))) return true;
    for (const f of c.files) if (await this.publicRepo.exists(f.split('/'))) return true;
    return false;
  }

  /** FAILED with the portal's text for a version that exists, per component (its `errors` key). */
  private async refuseExisting(d: DeploymentRecord, existing: ComponentRecord[]): Promise<void> {
    for (const c of existing) c.errors.push(ruleText.alreadyPublished(c.purl));
    d.state = 'FAILED';
    d.failure = this.rules.formatFailure(
      existing.map((c) => ({ ...c, violations: c.errors.map((message) => ({ code: 'already-published' as const, message })) })),
    );
    await this.stateFile.save();
  }

  /**
   * PUBLISHING is on disk before the copy starts, so a restart can finish an interrupted one. A
   * copy that fails (a full or read-only disk) turns the deployment FAILED with a `common` error.
   */
  private async copyOut(d: DeploymentRecord): Promise<void> {
    d.state = 'PUBLISHING';
    await this.stateFile.save();
    try {
      await this.bundles.forEach(d.id, (p, file) => this.publicRepo.write(p, file));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
      d.state = 'FAILED';
      d.commonErrors = [`Failed to process deployment: the files could not be written to the repository (${code})`];
      await this.stateFile.save();
      return;
    }
    d.state = 'PUBLISHED';
    d.publishedAt = new Date().toISOString();
    await this.stateFile.save();
    await this.bundles.remove(d.id);
  }

  async drop(user: SandboxUser, id: string): Promise<void> {
    const d = this.own(user, id);
    await this.locks.run(d.namespace, async () => {
      if (d.state !== 'VALIDATED' && d.state !== 'FAILED') {
        throw new HttpError(400, { error: `Deployment ${id} is ${d.state} and cannot be dropped: only VALIDATED or FAILED deployments can be dropped` });
      }
      this.list = this.list.filter((x) => x !== d);
      await this.stateFile.save();
      await this.bundles.remove(d.id);
    });
  }

  async isPublished(groupId: string, artifactId: string, version: string): Promise<boolean> {
    return this.publicRepo.exists(pomPath(groupId, artifactId, version));
  }

  /** Deployments of `user` in or below `namespace` (the portal page lists them). */
  ofUser(user: SandboxUser, namespace?: string): DeploymentRecord[] {
    return this.list.filter((d) => d.user === user.name && (namespace === undefined || inNamespace(d.namespace, namespace)));
  }

  /**
   * After a restart: finish publications a crash interrupted (or mark them FAILED), and delete
   * bundles no deployment owns (a crash between writing one and saving its record). Returns what
   * was repaired, for one log line.
   */
  async repair(): Promise<string[]> {
    const done: string[] = [];
    // Checked before it became PUBLISHING: the redo finds its own files, which the store accepts.
    for (const d of this.list.filter((x) => x.state === 'PUBLISHING')) {
      await this.copyOut(d);
      done.push(d.state === 'PUBLISHED' ? `finished publishing deployment ${d.id}` : `deployment ${d.id} could not be published and is FAILED`);
    }
    const known = new Set(this.list.filter((d) => d.state !== 'PUBLISHED').map((d) => d.id));
    for (const id of await this.bundles.onDisk()) {
      if (known.has(id)) continue;
      await this.bundles.remove(id);
      done.push(`removed the files of unrecorded deployment ${id}`);
    }
    return done;
  }

  /**
   * Data folders written before deployments kept their own files held them in the staging
   * repository's log (`repositoryId`): adopt those logs as bundles, before staging's repair
   * would drop them as handed over.
   */
  async adoptLegacy(stagingLog: (repositoryId: string) => string): Promise<string[]> {
    const done: string[] = [];
    for (const d of this.list as (DeploymentRecord & { repositoryId?: string })[]) {
      if (d.state === 'PUBLISHED' || d.repositoryId === undefined || (await this.bundles.has(d.id))) continue;
      if (await this.bundles.adopt(d.id, stagingLog(d.repositoryId))) done.push(`moved the files of deployment ${d.id} out of its staging repository`);
      delete d.repositoryId;
    }
    return done;
  }

  async reset(): Promise<void> {
    this.list = [];
    await this.bundles.clear();
  }
}
