import { readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { DataDir } from '../shared/persistence.js';
import type { SizedDeploymentFile } from '../../core/validation/types.js';
import { StagingLog, recordHead } from '../staging/staging-log.js';

const bundleName = /^([0-9a-f-]{36})\.bundle$/;

/**
 * The files of each deployment, `<data>/deployments/<deployment id>.bundle`, written once and
 * atomically in the staging log's record format: the portal's own copy of what the manual upload
 * call froze, so what is validated is exactly what is published, whatever happens to the staging
 * repository afterwards.
 */
export class BundleStore {
  constructor(
    private readonly dir: DataDir,
    readonly root: string,
  ) {}

  private file(id: string): string {
    if (!/^[0-9a-f-]{36}$/.test(id)) throw new Error(`bad deployment id ${id}`);
    return path.join(this.root, `${id}.bundle`);
  }

  /** Copies the files in, one record after another, each streamed (a bundle of any size). */
  async write(id: string, files: ReadonlyMap<string, SizedDeploymentFile>): Promise<void> {
    await this.dir.writeAtomicWith(this.file(id), async (out) => {
      for (const [p, file] of files) {
        await out.write(recordHead(p, file.size));
        let written = 0;
        for await (const chunk of file.chunks()) {
          written += chunk.length;
          if (written > file.size) break;
          await out.write(chunk);
        }
        if (written !== file.size) throw new Error(`${p}: ${written} bytes read where ${file.size} were declared`);
      }
    });
  }

  /** A path for an upload's body while it arrives (under the data folder's tmp/, emptied at start). */
  scratch(extension: string): string {
    return this.dir.scratch(extension);
  }

  /** Visits every file of a bundle, one at a time, each read in chunks (never a whole file in memory). */
  async forEach(id: string, visit: (mavenPath: string, file: SizedDeploymentFile) => Promise<void>): Promise<void> {
    const log = new StagingLog(this.file(id));
    try {
      for (const [p, file] of log.files()) await visit(p, file);
    } finally {
      log.close();
    }
  }

  async has(id: string): Promise<boolean> {
    return (await stat(this.file(id)).catch(() => undefined))?.isFile() === true;
  }

  /** Takes a staging log over as a deployment's bundle (same record format): a rename. */
  async adopt(id: string, logFile: string): Promise<boolean> {
    return rename(logFile, this.file(id)).then(
      () => true,
      () => false,
    );
  }

  async remove(id: string): Promise<void> {
    await rm(this.file(id), { force: true });
  }

  async onDisk(): Promise<string[]> {
    const names = await readdir(this.root).catch(() => [] as string[]);
    return names.flatMap((n) => bundleName.exec(n)?.[1] ?? []);
  }

  async clear(): Promise<void> {
    for (const id of await this.onDisk()) await this.remove(id);
  }
}
