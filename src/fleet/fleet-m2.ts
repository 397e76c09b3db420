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
        for (const p of all[name]?.paths ?? []) if (!p.split('/').some((part) => part === '..' || part === '')) await rm(this.resolve(p), { recursive: true, force: true });
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
        const folder = versionPath(pom, version);
        // A POM the release did not build (outside the reactor) is not the fleet's to install.
        if (folder === undefined || (await stat(path.join(released, folder)).catch(() => undefined)) === undefined) continue;
        await cp(path.join(released, folder), this.resolve(folder), { recursive: true, force: true });
        paths.push(folder);
        const snapshot = pom.version?.endsWith('-SNAPSHOT') === true ? versionPath(pom, pom.version) : undefined;
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

  private resolve(rel: string): string {
    return path.join(this.dir, ...rel.split('/'));
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

/** `g/r/o/u/p/artifactId/version` for a module, or undefined for coordinates no path can hold. */
function versionPath(pom: BuiltPom, version: string): string | undefined {
  const parts = [...pom.groupId.split('.'), pom.artifactId, version];
  return parts.some((p) => p === '' || p === '.' || p === '..' || /[/\\]|\$\{/.test(p)) ? undefined : parts.join('/');
}
