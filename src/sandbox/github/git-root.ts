import { execFile } from 'node:child_process';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { validName } from './repo-name.js';

const run = promisify(execFile);

/** A bare repository below the git root, named as its folders spell it. */
export interface GitRepoLocation {
  owner: string;
  name: string;
  /** DIR/OWNER/NAME.git */
  dir: string;
}

/**
 * What a bare repository says about itself (DESIGN §13 Sandbox): the default branch from its HEAD,
 * the rest from its config's keys `sandbox.archived`, `sandbox.fork`, `sandbox.private`,
 * `sandbox.topics` (comma-separated, repeatable) and `sandbox.description`. A key that is not set leaves the field undefined, so
 * the stand-in's own record (a description given to POST /user/repos) still shows.
 */
export interface GitRepoFacts {
  default_branch: string;
  archived: boolean;
  fork: boolean;
  topics: string[];
  private?: boolean;
  description?: string;
}

/**
 * The environment of every git the stand-in starts: what git needs to run and the operator's own
 * git configuration (a safe.directory for folders owned by someone else), nothing else of the
 * sandbox's environment, and never a GIT_DIR or GIT_WORK_TREE that would point git elsewhere.
 */
export function gitProcessEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const name of ['PATH', 'HOME', 'TMPDIR', 'XDG_CONFIG_HOME', 'GIT_EXEC_PATH', 'GIT_CONFIG_NOSYSTEM', 'GIT_CONFIG_GLOBAL', 'GIT_CONFIG_SYSTEM']) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return { ...env, ...extra };
}

async function isDir(p: string): Promise<boolean> {
  return (await stat(p).catch(() => undefined))?.isDirectory() === true;
}

/** git's boolean spellings; a key written without `= value` is true, as for git itself. */
function gitBool(value: string | null | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  return value === null || /^(true|yes|on|1)$/i.test(value.trim());
}

/**
 * `relctl sandbox --git-root DIR`: the bare repositories `DIR/OWNER/NAME.git`. Only direct
 * children of DIR and of an owner folder are ever named, found by listing the folders (GitHub's
 * names are case-insensitive), so no request can reach a path outside DIR.
 */
export class GitRoot {
  constructor(readonly dir: string) {}

  /** The owner folder's own spelling, or undefined when DIR has none for this owner. */
  async ownerFolder(owner: string): Promise<string | undefined> {
    if (!validName(owner)) return undefined;
    const entries = await readdir(this.dir).catch(() => [] as string[]);
    const wanted = owner.toLowerCase();
    const matches = entries.filter((e) => e.toLowerCase() === wanted);
    const folder = matches.includes(owner) ? owner : matches[0];
    return folder !== undefined && (await isDir(path.join(this.dir, folder))) ? folder : undefined;
  }

  /** The repositories of an owner (undefined: no owner folder). */
  async list(owner: string): Promise<GitRepoLocation[] | undefined> {
    const folder = await this.ownerFolder(owner);
    if (folder === undefined) return undefined;
    const entries = await readdir(path.join(this.dir, folder)).catch(() => [] as string[]);
    const found = await Promise.all(
      entries
        .filter((e) => e.endsWith('.git') && validName(e.slice(0, -4)))
        .map(async (e): Promise<GitRepoLocation | undefined> => {
          const dir = path.join(this.dir, folder, e);
          // A bare repository has its HEAD file at the top; anything else is not served.
          const head = await stat(path.join(dir, 'HEAD')).catch(() => undefined);
          return head?.isFile() === true ? { owner: folder, name: e.slice(0, -4), dir } : undefined;
        }),
    );
    return found.filter((r): r is GitRepoLocation => r !== undefined);
  }

  async locate(owner: string, name: string): Promise<GitRepoLocation | undefined> {
    const all = await this.list(owner);
    const wanted = name.toLowerCase();
    return all?.find((r) => r.name === name) ?? all?.find((r) => r.name.toLowerCase() === wanted);
  }

  async facts(repo: GitRepoLocation): Promise<GitRepoFacts> {
    const [head, config] = await Promise.all([readFile(path.join(repo.dir, 'HEAD'), 'utf8').catch(() => ''), this.config(repo.dir)]);
    const branch = /^ref: refs\/heads\/(.+?)\s*$/.exec(head)?.[1];
    const topics = (config.get('sandbox.topics') ?? []).flatMap((v) => (v ?? '').split(',')).map((t) => t.trim()).filter((t) => t !== '');
    const description = config.get('sandbox.description')?.at(-1);
    const priv = gitBool(config.get('sandbox.private')?.at(-1));
    return {
      // A detached HEAD names no branch; GitHub's default is main.
      default_branch: branch ?? 'main',
      archived: gitBool(config.get('sandbox.archived')?.at(-1)) === true,
      fork: gitBool(config.get('sandbox.fork')?.at(-1)) === true,
      topics,
      ...(priv === undefined ? {} : { private: priv }),
      ...(description === undefined || description === null ? {} : { description }),
    };
  }

  /** Every ref and the object it names (`refs/heads/main` → sha). */
  async refs(dir: string): Promise<Map<string, string>> {
    const { stdout } = await run('git', ['--git-dir', dir, 'for-each-ref', '--format=%(objectname) %(refname)'], { env: gitProcessEnv(), maxBuffer: 64 * 1024 * 1024 });
    const refs = new Map<string, string>();
    for (const line of stdout.split('\n')) {
      const space = line.indexOf(' ');
      if (space > 0) refs.set(line.slice(space + 1), line.slice(0, space));
    }
    return refs;
  }

  /** The `sandbox.*` values of a repository's config, through git itself (quoting, includes). */
  private async config(dir: string): Promise<Map<string, (string | null)[]>> {
    const values = new Map<string, (string | null)[]>();
    let stdout: string;
    try {
      ({ stdout } = await run('git', ['config', '--file', path.join(dir, 'config'), '-z', '--get-regexp', '^sandbox\\.'], { env: gitProcessEnv() }));
    } catch (error) {
      // Exit 1: no such key, the usual case.
      if ((error as { code?: unknown }).code === 1) return values;
      throw error;
    }
    for (const entry of stdout.split('\0')) {
      if (entry === '') continue;
      const nl = entry.indexOf('\n');
      const key = nl < 0 ? entry : entry.slice(0, nl);
      values.set(key, [...(values.get(key) ?? []), nl < 0 ? null : entry.slice(nl + 1)]);
    }
    return values;
  }
}
