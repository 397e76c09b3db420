import { randomUUID } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Portal deployment states (reference/portal-api.md §B). */
export type DeploymentState = 'PENDING' | 'VALIDATING' | 'VALIDATED' | 'PUBLISHING' | 'PUBLISHED' | 'FAILED';
export type PublishingType = 'user_managed' | 'automatic' | 'portal_api';

/** An implicit staging repository, keyed `<user>/<ip>/<namespace>--default-repository`. */
export interface RepositoryRecord {
  /** Internal id: the folder name under staging/ (the key holds `/` and addresses). */
  id: string;
  key: string;
  user: string;
  ip: string;
  namespace: string;
  state: 'open' | 'closed';
  description: string | null;
  portalDeploymentId: string | null;
  createdAt: string;
}

export interface ComponentRecord {
  purl: string;
  groupId: string;
  artifactId: string;
  version: string;
  packaging: string;
  files: string[];
  errors: string[];
}

export interface DeploymentRecord {
  id: string;
  name: string;
  repositoryId: string;
  repositoryKey: string;
  namespace: string;
  user: string;
  state: DeploymentState;
  publishingType: PublishingType;
  components: ComponentRecord[];
  /** The failure text returned by the manual upload (FAILED only). */
  failure?: string;
  createdAt: string;
}

export interface SandboxStateData {
  version: 1;
  repositories: RepositoryRecord[];
  deployments: DeploymentRecord[];
  /** The key directory's own serialised state. */
  keys?: unknown;
}

export function emptyState(): SandboxStateData {
  return { version: 1, repositories: [], deployments: [] };
}

/**
 * state.json in the data folder. Saves are coalesced: a caller that awaits save() knows a write
 * holding the state as of its call has reached the disk (temp file + rename, so a kill -9
 * leaves the previous or the next state, never half of one).
 */
export class StateFile {
  private readonly file: string;
  private writing: Promise<void> = Promise.resolve();
  private pending: Promise<void> | undefined;

  constructor(
    dataDir: string,
    private readonly snapshot: () => SandboxStateData,
  ) {
    this.file = path.join(dataDir, 'state.json');
  }

  async load(): Promise<SandboxStateData> {
    const text = await readFile(this.file, 'utf8').catch(() => undefined);
    if (text === undefined) return emptyState();
    const data = JSON.parse(text) as Partial<SandboxStateData>;
    return {
      version: 1,
      repositories: Array.isArray(data.repositories) ? data.repositories : [],
      deployments: Array.isArray(data.deployments) ? data.deployments : [],
      keys: data.keys,
    };
  }

  save(): Promise<void> {
    if (this.pending !== undefined) return this.pending;
    const previous = this.writing;
    this.pending = (async () => {
      await previous.catch(() => undefined);
      this.pending = undefined;
      const text = JSON.stringify(this.snapshot());
      this.writing = this.writeNow(text);
      await this.writing;
    })();
    return this.pending;
  }

  private async writeNow(text: string): Promise<void> {
    const tmp = path.join(path.dirname(this.file), 'tmp', `state-${randomUUID()}.json`);
    await writeFile(tmp, text);
    await rename(tmp, this.file);
  }
}
