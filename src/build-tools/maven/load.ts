import { readdirSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { declaredId, parsePom, type ChainLink, type ParentRef } from '../../core/pom/index.js';
import { descriptorSizeCap, readDescriptor, type DescriptorRead } from '../../io/descriptor.js';
import { statOf } from '../../io/stat-of.js';
import { folderOf, inFolder, relativeToRoot } from '../../core/abs-path.js';
import { repositoryPom } from '../../core/maven-coordinates.js';

export { relativeToRoot };

/** One POM file as loaded: parsed, or why not. */
export interface LoadedPom {
  abs: string;
  /** Root-relative path (forward slashes) when the file is inside the project. */
  file?: string;
  /** Where it came from: project files resolve parents via relativePath, repository files do not. */
  origin: 'project' | 'repository';
  link?: ChainLink;
  /**
   * Why it could not be used: missing, a directory, unreadable, or malformed (which includes a
   * special file such as a FIFO or a device, and a file over the descriptor size cap).
   */
  problem?: { kind: 'missing' | 'not-a-file' | 'unreadable' | 'malformed'; message: string; line?: number };
}

/**
 * `path.resolve(dir, name)` for a normalised absolute `dir`: a plain name (the usual `<module>`)
 * is appended without normalising the whole path again (a reactor has thousands).
 */
export function resolveIn(dir: string, name: string): string {
  if (path.sep === '/' && name !== '.' && name !== '..' && !name.includes('/')) return dir.endsWith('/') ? `${dir}${name}` : `${dir}/${name}`;
  return path.resolve(dir, name);
}

/**
 * Reads and parses each POM file once (keyed by real path), so a parent shared by 1000 modules
 * is parsed once and the same object identifies it in every chain. Synchronous (see io/stat-of.ts):
 * only a parent found nowhere on disk goes through the asynchronous fallback.
 */
/**
 * Parents that must come from somewhere other than the local repository: a fleet's own parents
 * (DESIGN §13), read from the repository that builds them. `claims` is asked synchronously.
 */
export interface PreferredParents {
  claims(ref: ParentRef): boolean;
  find(ref: ParentRef): Promise<string | undefined>;
}

export class PomLoader {
  private readonly byPath = new Map<string, LoadedPom>();
  /** Every module asks for the same `../pom.xml`: resolve each candidate path once. */
  private readonly candidates = new Map<string, string>();
  /** Module POMs read while their real path was found (moduleFile), not yet loaded. */
  private readonly prefetched = new Map<string, DescriptorRead>();

  constructor(
    private readonly root: string,
    private readonly localRepo: string,
    /** Where else a parent may be found (relctl's parent cache, fetched online); gives a POM path. */
    private readonly fallback?: (ref: ParentRef) => Promise<string | undefined>,
    private readonly preferred?: PreferredParents,
  ) {}

  load(abs: string, origin: LoadedPom['origin']): LoadedPom {
    let loaded = this.byPath.get(abs);
    if (loaded === undefined) {
      loaded = this.read(abs, origin);
      this.byPath.set(abs, loaded);
    }
    return loaded;
  }

  private read(abs: string, origin: LoadedPom['origin']): LoadedPom {
    const file = relativeToRoot(this.root, abs);
    // Filled in place rather than spread into a new object: a reactor loads thousands, and
    // preflight's short-lived process runs this code unoptimised, where a spread is a slow copy.
    const loaded: LoadedPom = file === undefined ? { abs, origin } : { abs, origin, file };
    let read = this.prefetched.get(abs);
    if (read === undefined) read = readDescriptor(abs);
    else this.prefetched.delete(abs);
    if (!read.ok) {
      if (read.problem === 'missing') loaded.problem = { kind: 'missing', message: 'no such file' };
      else if (read.problem === 'directory') loaded.problem = { kind: 'not-a-file', message: 'it is a directory, not a file' };
      else if (read.problem === 'unreadable') loaded.problem = { kind: 'unreadable', message: read.reason };
      // A FIFO, a device or a huge file: not something Maven could read as a POM either.
      else loaded.problem = { kind: 'malformed', message: `it ${read.reason}` };
      return loaded;
    }
    const parsed = parsePom(read.text);
    if (!parsed.ok) {
      const problem: LoadedPom['problem'] = { kind: 'malformed', message: parsed.message };
      if (parsed.line !== undefined) problem.line = parsed.line;
      loaded.problem = problem;
      return loaded;
    }
    const identity = file === undefined ? { id: declaredId(parsed.pom) } : { id: declaredId(parsed.pom), file };
    loaded.link = { pom: parsed.pom, identity };
    return loaded;
  }

  /** The real path of a file, or the path itself when it cannot be resolved. */
  real(abs: string): string {
    try {
      // The native call is one syscall; the JS fallback lstat()s every path component.
      return realpathSync.native(abs);
    } catch {
      return abs;
    }
  }

  /**
   * The names in a folder (given by its real path) that are folders themselves, not links: a
   * module folder listed there has the real path `<dir>/<name>`. One listing of an aggregator's
   * folder instead of one readlink per module; empty when the folder cannot be listed.
   */
  realSubfolders(dir: string): Set<string> {
    try {
      return new Set(readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name));
    } catch {
      return new Set();
    }
  }

  /**
   * The real path of the POM a `<module>` entry names (`targetIsReal`: the entry's folder is known
   * to be a real path, see realSubfolders): `<dir>/pom.xml` for a folder (the usual
   * case: read at once, its real path taken from the open file, and kept for load()), the file
   * itself otherwise; undefined when the entry names nothing at all.
   */
  moduleFile(target: string, targetIsReal = false): string | undefined {
    const candidate = inFolder(target, 'pom.xml');
    const read = readDescriptor(candidate, descriptorSizeCap, true, targetIsReal ? target : undefined);
    if (read.ok && read.realPath !== undefined) {
      this.prefetched.set(read.realPath, read);
      return read.realPath;
    }
    // pom.xml is there but unusable (a directory, a FIFO...): load() reports why.
    if (!read.ok && read.problem !== 'missing') return this.real(candidate);
    const info = statOf(target);
    if (info === undefined) return undefined;
    return this.real(info.isDirectory() ? candidate : target);
  }

  /**
   * Finds a parent the way Maven does: the POM at relativePath (default ../pom.xml; a folder
   * means its pom.xml) when its coordinates match, else the local repository. `fallback` is
   * true when neither has it and the fallback should be asked (parentFromFallback).
   */
  parentOnDisk(child: LoadedPom, ref: ParentRef): { parent: LoadedPom | undefined; fallback: boolean } {
    if (child.origin === 'project' && ref.relativePath !== '') {
      // The default ../pom.xml of a normalised absolute path needs no path.resolve (1000 modules ask).
      const wanted = ref.relativePath === undefined ? inFolder(folderOf(folderOf(child.abs)), 'pom.xml') : path.resolve(path.dirname(child.abs), ref.relativePath);
      let candidate = this.candidates.get(wanted);
      if (candidate === undefined) {
        candidate = this.real(statOf(wanted)?.isDirectory() === true ? path.join(wanted, 'pom.xml') : wanted);
        this.candidates.set(wanted, candidate);
      }
      const loaded = this.load(candidate, 'project');
      if (loaded.link !== undefined && matches(loaded.link, ref)) return { parent: loaded, fallback: false };
    }
    // A preferred parent wins over the local repository's copy, which may be stale or another build.
    if (this.preferred?.claims(ref) === true) return { parent: undefined, fallback: true };
    if (repositoryPomPath(this.localRepo, ref) === undefined) return { parent: undefined, fallback: false };
    const local = this.fromLocalRepo(ref);
    if (local !== undefined) return { parent: local, fallback: false };
    return { parent: undefined, fallback: this.fallback !== undefined };
  }

  private fromLocalRepo(ref: ParentRef): LoadedPom | undefined {
    const abs = repositoryPomPath(this.localRepo, ref);
    const loaded = abs === undefined ? undefined : this.load(abs, 'repository');
    return loaded?.link === undefined ? undefined : loaded;
  }

  /** The parent from the preferred source, else the local repository, else the fallback (parentOnDisk said to ask). */
  async parentFromFallback(ref: ParentRef): Promise<LoadedPom | undefined> {
    if (this.preferred?.claims(ref) === true) {
      const own = await this.preferred.find(ref);
      const loaded = own === undefined ? undefined : this.load(own, 'repository');
      if (loaded?.link !== undefined) return loaded;
      const local = this.fromLocalRepo(ref);
      if (local !== undefined) return local;
    }
    const other = await this.fallback?.(ref);
    const fetched = other === undefined ? undefined : this.load(other, 'repository');
    return fetched?.link === undefined ? undefined : fetched;
  }
}

/**
 * Where the local repository keeps the POM `ref` names; undefined when the coordinates are
 * incomplete, uninterpolated (`${...}`), not in Maven's syntax, or would step outside the repository.
 */
export function repositoryPomPath(localRepo: string, ref: Pick<ParentRef, 'groupId' | 'artifactId' | 'version'>): string | undefined {
  return repositoryPom(localRepo, ref);
}

/** Maven accepts a relativePath POM only when its coordinates are the ones the child asks for. */
function matches(link: ChainLink, ref: ParentRef): boolean {
  const pom = link.pom;
  const g = pom.groupId?.value ?? pom.parent?.groupId;
  const v = pom.version?.value ?? pom.parent?.version;
  if (ref.groupId !== undefined && g !== ref.groupId) return false;
  if (ref.artifactId !== undefined && pom.artifactId?.value !== ref.artifactId) return false;
  // CI-friendly versions (${revision}) cannot be compared before interpolation.
  if (ref.version !== undefined && v !== undefined && !ref.version.includes('${') && !v.includes('${') && v !== ref.version) return false;
  return true;
}
