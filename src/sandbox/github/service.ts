import type { Faults } from '../shared/faults.js';
import { HttpError } from '../shared/http.js';
import { JsonState } from '../shared/json-state.js';
import { KeyedLock } from '../shared/persistence.js';
import type { GitRoot } from './git-root.js';
import { RateLimits } from './rate-limit.js';
import { validName } from './repo-name.js';
import { githubError, type RepoFacts } from './shapes.js';
import { emptyGithubState, newRepo, type GithubStateData, type PushRecord, type RepoRecord } from './state.js';

export interface GithubOptions {
  gitRoot?: GitRoot | undefined;
  faults?: Faults | undefined;
}

/** The GitHub stand-in's records and their persistence (github.json in the data folder). */
export class GithubService {
  readonly rateLimits = new RateLimits();
  /**
   * Writes to one repository take turns (branches.ts `lockKey`): pushes, so that what each changed
   * is told by its refs before and after; merges, which move a branch; and a pull's creation,
   * so that two at once cannot both pass the duplicate check.
   */
  readonly repoLock = new KeyedLock();
  /** `--git-root`: bare repositories served over smart HTTP and listed with the owner's repositories. */
  readonly gitRoot: GitRoot | undefined;
  /** The sandbox's fault injector, for the GitHub rate-limit faults the stand-in answers itself. */
  readonly faults: Faults | undefined;

  private constructor(
    private data: GithubStateData,
    private readonly file: JsonState<GithubStateData>,
    options: GithubOptions,
  ) {
    this.gitRoot = options.gitRoot;
    this.faults = options.faults;
  }

  static async open(dataDir: string, options: GithubOptions = {}): Promise<GithubService> {
    const file = new JsonState<GithubStateData>(dataDir, 'github.json');
    const data = await file.load(emptyGithubState);
    return new GithubService(Array.isArray(data.repos) ? data : emptyGithubState(), file, options);
  }

  get state(): GithubStateData {
    return this.data;
  }

  nextId(): number {
    return this.data.nextId++;
  }

  find(owner: string, name: string): RepoRecord | undefined {
    const o = owner.toLowerCase();
    const n = name.toLowerCase();
    return this.data.repos.find((r) => r.owner.toLowerCase() === o && r.name.toLowerCase() === n);
  }

  /** A repository exists on first use (DESIGN §8), so tests need no set-up call. */
  repo(owner: string, name: string): RepoRecord {
    const found = this.find(owner, name);
    if (found !== undefined) return found;
    if (!validName(owner) || !validName(name)) throw new HttpError(404, githubError('Not Found'));
    const created = newRepo(this.nextId(), owner, name);
    this.data.repos.push(created);
    return created;
  }

  create(owner: string, name: string, options: { private?: boolean; description?: string | null }): RepoRecord | undefined {
    if (this.find(owner, name) !== undefined) return undefined;
    const created = newRepo(this.nextId(), owner, name, options);
    this.data.repos.push(created);
    return created;
  }

  /** What a `--git-root` repository of this name says about itself (undefined: none there). */
  async facts(owner: string, name: string): Promise<RepoFacts | undefined> {
    const located = await this.gitRoot?.locate(owner, name);
    return located === undefined ? undefined : this.gitRoot!.facts(located);
  }

  get pushes(): readonly PushRecord[] {
    return this.data.pushes ?? [];
  }

  async recordPush(push: PushRecord): Promise<void> {
    (this.data.pushes ??= []).push(push);
    await this.save();
  }

  /**
   * What `GET /sandbox/state` shows (oldest first), so that a test can say "no new pull request,
   * comment or push": every issue and pull request of every repository, their comments, and the
   * pushes to `--git-root` repositories.
   */
  view(): Record<string, unknown[]> {
    const issues = [];
    const pulls = [];
    const comments = [];
    for (const r of this.data.repos) {
      const repository = `${r.owner}/${r.name}`;
      for (const { pull, ...i } of r.issues) {
        if (pull === undefined) issues.push({ repository, ...i });
        else pulls.push({ repository, ...i, ...pull, merged: (pull.merged_at ?? null) !== null });
      }
      for (const c of r.comments ?? []) comments.push({ repository, ...c });
    }
    // Ids come from one counter, so they order by creation across repositories (timestamps are in whole seconds).
    const byId = (a: { id: number }, b: { id: number }): number => a.id - b.id;
    return { githubIssues: issues.sort(byId), githubPulls: pulls.sort(byId), githubComments: comments.sort(byId), githubPushes: [...this.pushes] };
  }

  save(): Promise<void> {
    return this.file.save(this.data);
  }

  async reset(): Promise<void> {
    this.data = emptyGithubState();
    this.rateLimits.reset();
    await this.save();
  }
}
