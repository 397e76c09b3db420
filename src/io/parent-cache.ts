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

/** What one fetch of a parent came to; shared by every source in the process that asks for the same file. */
type Fetched = { file: string } | { absent: string } | { unreachable: string };

/**
 * Fetches in flight, by public repository and cache file, across every ParentSource of the
 * process: a fleet audits its repositories at once, and two that share a parent must neither
 * fetch it twice nor write the same file together (one of them then lost the rename).
 */
const inFlight = new Map<string, Promise<Fetched>>();
let written = 0;

/**
 * Finds parent POMs in the cache, fetching missing ones (online). `unreachable` lists fetches
 * that got no answer (network, 5xx): preflight exits 3 on them rather than pass silently.
 */
export class ParentSource {
  readonly unreachable: string[] = [];
  /** Parents the public repository answered 404 for. */
  readonly absent: string[] = [];
  private http: HttpClient | undefined;

  constructor(private readonly options: ParentSourceOptions) {}

  /** The cached POM file for `ref`, fetched first when online and not cached yet. */
  async find(ref: ParentCoordinates): Promise<string | undefined> {
    // The repository layout, for coordinates in Maven's syntax only: a POM relctl does not own names them.
    const file = repositoryPom(this.options.cacheDir, ref);
    if (file === undefined) return undefined;
    if (existsSync(file)) return file;
    const publicRepoUrl = this.options.publicRepoUrl;
    if (publicRepoUrl === undefined) return undefined;
    // By repository too: a clone's own relctl.config.json may name another public repository.
    const key = `${publicRepoUrl}\u0000${file}`;
    let p = inFlight.get(key);
    if (p === undefined) {
      p = this.fetch(ref as Required<ParentCoordinates>, file, publicRepoUrl).finally(() => inFlight.delete(key));
      inFlight.set(key, p);
    }
    // Each source keeps its own account of what it could not have: its audit says so.
    const fetched = await p;
    if ('absent' in fetched) this.absent.push(fetched.absent);
    if ('unreachable' in fetched) this.unreachable.push(fetched.unreachable);
    return 'file' in fetched ? fetched.file : undefined;
  }

  private async fetch(ref: Required<ParentCoordinates>, file: string, publicRepoUrl: string): Promise<Fetched> {
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
      if (res.status === 404 || res.status === 410) return { absent: id };
      if (res.status < 200 || res.status >= 300) return { unreachable: `The parent POM ${id} could not be fetched from ${url}: HTTP ${res.status}.` };
      // Written whole under a name of its own, then renamed: a crash never leaves half a POM in the cache.
      await mkdir(path.dirname(file), { recursive: true });
      const tmp = `${file}.${process.pid}.${++written}.tmp`;
      await writeFile(tmp, res.body);
      await rename(tmp, file);
      return { file };
    } catch (error) {
      const e = error as Error & { code?: string };
      return { unreachable: `The parent POM ${id} could not be fetched from ${url}: ${e.code ?? e.message}.` };
    }
  }

  async close(): Promise<void> {
    await this.http?.close();
  }
}
