/**
 * Parent POMs from the public repository, kept in relctl's own cache (never the user's local
 * Maven repository): preflight online fetches a parent it cannot find anywhere else, so the
 * checks that depend on inherited values can run. The HTTP client is loaded only when a fetch
 * actually happens (start-up stays fast).
 */
import { existsSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { HttpClient } from './http.js';
import { pomUrl } from './public-repo.js';
import { repositoryPom } from '../core/maven-coordinates.js';

export interface ParentCoordinates {
  groupId?: string;
  artifactId?: string;
  version?: string;
}

/** `$XDG_CACHE_HOME/relctl/parents`, else `~/.cache/relctl/parents`. */
export function parentCacheDir(env: NodeJS.ProcessEnv, home: string): string {
  const xdg = env.XDG_CACHE_HOME;
  const base = xdg !== undefined && xdg !== '' && path.isAbsolute(xdg) ? xdg : path.join(home, '.cache');
  return path.join(base, 'relctl', 'parents');
}

export interface ParentSourceOptions {
  cacheDir: string;
  /** Undefined offline: only what the cache already holds is used. */
  publicRepoUrl?: string;
  timeoutMs: number;
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  log?: (line: string) => void;
}

/**
 * Finds parent POMs in the cache, fetching missing ones (online). `unreachable` lists fetches
 * that got no answer (network, 5xx): preflight exits 3 on them rather than pass silently.
 */
export class ParentSource {
  readonly unreachable: string[] = [];
  /** Parents the public repository answered 404 for. */
  readonly absent: string[] = [];
  private readonly pending = new Map<string, Promise<string | undefined>>();
  private http: HttpClient | undefined;

  constructor(private readonly options: ParentSourceOptions) {}

  /** The cached POM file for `ref`, fetched first when online and not cached yet. */
  find(ref: ParentCoordinates): Promise<string | undefined> {
    // The repository layout, for coordinates in Maven's syntax only: a POM relctl does not own names them.
    const file = repositoryPom(this.options.cacheDir, ref);
    if (file === undefined) return Promise.resolve(undefined);
    if (existsSync(file)) return Promise.resolve(file);
    if (this.options.publicRepoUrl === undefined) return Promise.resolve(undefined);
    let p = this.pending.get(file);
    if (p === undefined) {
      p = this.fetch(ref as Required<ParentCoordinates>, file, this.options.publicRepoUrl);
      this.pending.set(file, p);
    }
    return p;
  }

  private async fetch(ref: Required<ParentCoordinates>, file: string, publicRepoUrl: string): Promise<string | undefined> {
    const url = pomUrl({ publicRepoUrl, groupId: ref.groupId, artifactId: ref.artifactId, version: ref.version });
    const id = `${ref.groupId}:${ref.artifactId}:${ref.version}`;
    try {
      if (this.http === undefined) {
        const { HttpClient } = await import('./http.js');
        this.http = new HttpClient({
          timeoutMs: this.options.timeoutMs,
          retries: 2,
          env: this.options.env,
          ...(this.options.signal === undefined ? {} : { signal: this.options.signal }),
          ...(this.options.log === undefined ? {} : { log: this.options.log }),
        });
      }
      const res = await this.http.request({ method: 'GET', url });
      if (res.status === 404 || res.status === 410) {
        this.absent.push(id);
        return undefined;
      }
      if (res.status < 200 || res.status >= 300) {
        this.unreachable.push(`The parent POM ${id} could not be fetched from ${url}: HTTP ${res.status}.`);
        return undefined;
      }
      // Written whole, then renamed: a crash never leaves half a POM in the cache.
      await mkdir(path.dirname(file), { recursive: true });
      const tmp = `${file}.${process.pid}.tmp`;
      await writeFile(tmp, res.body);
      await rename(tmp, file);
      return file;
    } catch (error) {
      const e = error as Error & { code?: string };
      this.unreachable.push(`The parent POM ${id} could not be fetched from ${url}: ${e.code ?? e.message}.`);
      return undefined;
    }
  }

  async close(): Promise<void> {
    await this.http?.close();
  }
}
