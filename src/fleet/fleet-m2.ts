/**
 * The fleet's own local Maven repository (DESIGN §13 Rehearse): `<workdir>/.relctl/m2`, the local
 * repository of every build `relctl fleet rehearse` runs, so nothing is written to the user's.
 * Downloads land there (a later run finds them), and each rehearsed repository's release is
 * installed there for its children, with the journal `<workdir>/.relctl/rehearsed.json` naming
 * what relctl put there per repository, so the next rehearsal of that repository first removes
 * exactly that (a failed rehearsal then leaves no stale release of an earlier run behind).
 */
import { cp, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { writeAtomic } from '../io/journal.js';
import { relativeToRoot } from '../core/abs-path.js';
import { repositoryFile } from '../core/maven-coordinates.js';
import type { BuiltPom } from './pom-index.js';

interface Installed {
  /** The version the rehearsal released. */
  version: string;
  /** Paths relative to the repository's root, forward slashes: version folders and snapshot POMs. */
  paths: string[];
}

export class FleetM2 {
  readonly dir: string;
  private readonly journal: string;
  /** Writes one at a time (rehearsals may finish together with --jobs). */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(workdir: string) {
    this.dir = path.join(workdir, '.relctl', 'm2');
    this.journal = path.join(workdir, '.relctl', 'rehearsed.json');
  }

  /** Removes what earlier runs installed for these repositories (before they are rehearsed again). */
  forget(names: readonly string[]): Promise<void> {
    return this.update(async (all) => {
      for (const name of names) {
        // Only paths inside the repository: the journal is a file a hand may have edited.
        const listed: unknown = all[name]?.paths;
        for (const p of Array.isArray(listed) ? (listed as unknown[]) : []) {
          const file = typeof p === 'string' ? this.inside(p) : undefined;
          if (file !== undefined) await rm(file, { recursive: true, force: true });
        }
        delete all[name];
      }
    });
  }

  /**
   * Installs a repository's rehearsed release for the repositories built after it and returns what
   * it put where (paths relative to the repository), for each module the release built:
   * 1. its version folder from `released` (the release as release:perform installed it into the
   *    build's local repository: POM, jars, sources, javadoc, signatures), and
   * 2. when its version at the clone's tip is a snapshot, its POM as the clone has it at that
   *    version (what `mvn install` of the tip would put there, POM only): a child naming the
   *    snapshot resolves it (its preflight reads it; its build is moved onto the release).
   */
  install(name: string, version: string, released: string, poms: readonly { pom: BuiltPom; file: string }[]): Promise<string[]> {
    return this.update(async (all) => {
      const paths: string[] = [];
      for (const { pom, file } of poms) {
        const folder = versionPath(this.dir, pom, version);
        // A POM the release did not build (outside the reactor) is not the fleet's to install.
        if (folder === undefined || (await stat(path.join(released, folder)).catch(() => undefined)) === undefined) continue;
        await cp(path.join(released, folder), this.resolve(folder), { recursive: true, force: true });
        paths.push(folder);
        const snapshot = pom.version?.endsWith('-SNAPSHOT') === true ? versionPath(this.dir, pom, pom.version) : undefined;
        if (snapshot === undefined) continue;
        await mkdir(this.resolve(snapshot), { recursive: true });
        await cp(file, this.resolve(`${snapshot}/${pom.artifactId}-${pom.version}.pom`), { force: true });
        // Maven's own mark of a locally installed file: available to every build, whatever its repositories.
        await writeFile(this.resolve(`${snapshot}/_remote.repositories`), `#installed by relctl fleet rehearse\n${pom.artifactId}-${pom.version}.pom>=\n`);
        paths.push(`${snapshot}/${pom.artifactId}-${pom.version}.pom`, `${snapshot}/_remote.repositories`);
      }
      all[name] = { version, paths };
      return paths;
    });
  }

  /** `rel` under the repository, or undefined when it is not a path inside it (no part empty, `.` or `..`). */
  private inside(rel: string): string | undefined {
    const parts = rel.split('/');
    if (parts.some((part) => part === '' || part === '.' || part === '..' || part.includes('\\'))) return undefined;
    const file = path.join(this.dir, ...parts);
    const within = relativeToRoot(this.dir, file);
    return within === undefined || within === '.' ? undefined : file;
  }

  /** {@link inside}, for the paths relctl made itself: one outside is a bug, never a write. */
  private resolve(rel: string): string {
    const file = this.inside(rel);
    if (file === undefined) throw new Error(`${rel} is not a path inside ${this.dir}`);
    return file;
  }

  private update<T>(change: (all: Record<string, Installed>) => Promise<T>): Promise<T> {
    const run = this.queue.then(async () => {
      const all = readJournal(await readFile(this.journal, 'utf8').catch(() => undefined));
      const result = await change(all);
      await mkdir(path.dirname(this.journal), { recursive: true });
      await writeAtomic(this.journal, JSON.stringify(all, null, 1) + '\n');
      return result;
    });
    this.queue = run.catch(() => undefined);
    return run;
  }
}

/** A journal that does not parse (a hand edit) names nothing: its files stay, later installs overwrite them. */
function readJournal(text: string | undefined): Record<string, Installed> {
  try {
    const all = JSON.parse(text ?? '{}') as unknown;
    return typeof all === 'object' && all !== null && !Array.isArray(all) ? (all as Record<string, Installed>) : {};
  } catch {
    return {};
  }
}

/** `g/r/o/u/p/artifactId/version` for a module, or undefined for coordinates no path can hold (not Maven's syntax). */
function versionPath(root: string, pom: BuiltPom, version: string): string | undefined {
  const folder = repositoryFile(root, { groupId: pom.groupId, artifactId: pom.artifactId, version });
  return folder === undefined ? undefined : relativeToRoot(root, folder);
}
