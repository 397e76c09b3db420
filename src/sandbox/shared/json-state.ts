import { randomUUID } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * One JSON file of a sandbox service's state in the data folder (github.json, jira.json).
 * Writes are serialised and atomic (temp file in the same folder, then rename), so a kill -9
 * leaves the previous or the next state; an unreadable file starts the service empty.
 */
export class JsonState<T> {
  private readonly file: string;
  private writing: Promise<void> = Promise.resolve();

  constructor(dataDir: string, name: string) {
    this.file = path.join(dataDir, name);
  }

  async load(fallback: () => T): Promise<T> {
    const text = await readFile(this.file, 'utf8').catch(() => undefined);
    if (text === undefined) return fallback();
    try {
      return JSON.parse(text) as T;
    } catch {
      return fallback();
    }
  }

  save(value: T): Promise<void> {
    const text = JSON.stringify(value);
    const next = this.writing.catch(() => undefined).then(async () => {
      const tmp = `${this.file}.${randomUUID()}.tmp`;
      try {
        await writeFile(tmp, text);
        await rename(tmp, this.file);
      } catch (error) {
        await rm(tmp, { force: true });
        throw error;
      }
    });
    this.writing = next;
    return next;
  }
}
