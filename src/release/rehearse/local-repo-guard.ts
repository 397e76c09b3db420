import { cp, mkdir, readFile, readdir, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { repositoryFile } from '../../core/maven-coordinates.js';

/**
 * The local repository as the rehearsal found it (issue 27 item 5). release:perform installs the
 * rehearsed version of every reactor module there and its deploy caches the sandbox's metadata
 * beside it (`maven-metadata-<id>.xml`, `resolver-status.properties`), which a later build would
 * read as the real repository's; a version that already existed (a local install, a download)
 * would be overwritten with the rehearsal's files, signed with its throwaway key.
 *
 * Snapshot and restore: before the build, every module's artifact folder's own files and the
 * folders of the rehearsed versions that exist are copied into `backup` (inside the rehearsal's
 * marked temp folder), and a journal names them; afterwards `restore` puts them back and removes
 * what the build added there. Downloads of other artifacts stay. The journal is written last, so
 * a run killed at any point leaves either nothing to restore or a complete backup, which the next
 * relctl run restores (restoreFromJournal) before it removes the dead run's folder.
 */
export interface ArtifactCoordinates {
  groupId: string;
  artifactId: string;
}

interface JournalEntry {
  localRepo: string;
  artifactDir: string;
  /** The artifact folder existed before the build (else it goes if the build left it empty). */
  existed: boolean;
  /** The artifact folder's own files before the build (metadata), saved under backup/<n>/files. */
  files: string[];
  /** The rehearsed versions that existed, saved under backup/<n>/versions; the others are removed. */
  versions: { version: string; existed: boolean }[];
}

export const journalName = 'journal.json';

export async function guardLocalRepo(localRepo: string, modules: readonly ArtifactCoordinates[], versions: readonly string[], backup: string): Promise<{ restore(): Promise<void> }> {
  const entries: JournalEntry[] = [];
  await mkdir(backup, { recursive: true });
  for (const m of modules) {
    // Coordinates in Maven's syntax only (a POM relctl does not own names them): a path inside the local repository.
    const artifactDir = repositoryFile(localRepo, m);
    if (artifactDir === undefined) continue;
    const n = String(entries.length);
    const listing = await readdir(artifactDir, { withFileTypes: true }).catch(() => undefined);
    const files = (listing ?? []).filter((e) => e.isFile()).map((e) => e.name);
    await mkdir(path.join(backup, n, 'files'), { recursive: true });
    for (const f of files) await cp(path.join(artifactDir, f), path.join(backup, n, 'files', f), { preserveTimestamps: true });
    const saved: JournalEntry['versions'] = [];
    for (const version of new Set(versions)) {
      if (repositoryFile(localRepo, { ...m, version }) === undefined) continue;
      const existed = (await stat(path.join(artifactDir, version)).catch(() => undefined))?.isDirectory() === true;
      if (existed) await cp(path.join(artifactDir, version), path.join(backup, n, 'versions', version), { recursive: true, preserveTimestamps: true });
      saved.push({ version, existed });
    }
    entries.push({ localRepo, artifactDir, existed: listing !== undefined, files, versions: saved });
  }
  const journal = path.join(backup, journalName);
  await writeFile(`${journal}.tmp`, JSON.stringify(entries, null, 1));
  await rename(`${journal}.tmp`, journal);
  return { restore: () => restoreFromJournal(backup) };
}

/**
 * Copies each module's `version` folder, as the build left it in the local repository, to the same
 * place under `dest` (Maven's own install: POM, jars, signatures, `_remote.repositories`). A module
 * the build did not install is left out. Called before `restore`, which removes those folders.
 */
export async function copyVersionFolders(localRepo: string, modules: readonly ArtifactCoordinates[], version: string, dest: string): Promise<void> {
  for (const m of modules) {
    const from = repositoryFile(localRepo, { ...m, version });
    const to = repositoryFile(dest, { ...m, version });
    if (from === undefined || to === undefined || (await stat(from).catch(() => undefined))?.isDirectory() !== true) continue;
    await cp(from, to, { recursive: true, preserveTimestamps: true });
  }
}

/** Puts back what `backup`'s journal names; a no-op without a journal. Removes the journal after. */
export async function restoreFromJournal(backup: string): Promise<void> {
  const journal = path.join(backup, journalName);
  const text = await readFile(journal, 'utf8').catch(() => undefined);
  if (text === undefined) return;
  const entries = JSON.parse(text) as JournalEntry[];
  for (const [i, e] of entries.entries()) {
    const saved = path.join(backup, String(i));
    for (const v of e.versions) {
      await rm(path.join(e.artifactDir, v.version), { recursive: true, force: true });
      if (v.existed) await cp(path.join(saved, 'versions', v.version), path.join(e.artifactDir, v.version), { recursive: true, preserveTimestamps: true });
    }
    for (const d of await readdir(e.artifactDir, { withFileTypes: true }).catch(() => [])) {
      if (d.isFile() && !e.files.includes(d.name)) await rm(path.join(e.artifactDir, d.name), { force: true });
    }
    for (const f of e.files) await cp(path.join(saved, 'files', f), path.join(e.artifactDir, f), { preserveTimestamps: true });
    // A folder the build created and left empty goes too (other downloads keep it).
    if (!e.existed) await removeEmptyUpTo(e.artifactDir, e.localRepo);
  }
  await rm(journal, { force: true });
}

/** `dir` and its parents below `root`, as long as they are empty (the groupId folders the build created). */
async function removeEmptyUpTo(dir: string, root: string): Promise<void> {
  for (let d = dir; d.startsWith(`${root}${path.sep}`); d = path.dirname(d)) {
    if (!(await rmdir(d).then(() => true, () => false))) return;
  }
}
