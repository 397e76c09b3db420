import { readdir, readFile, stat } from 'node:fs/promises';
import { descriptorText } from '../io/descriptor.js';
import path from 'node:path';
import { UsageError } from '../core/errors.js';
import { pomCoordinates } from '../core/pom/coordinates.js';
import { openZip } from '../io/zip-reader.js';
import { derivedChecksum, diskFile, memoryFile, newTally, streamedFile, type ReadTally, type SizedFile } from './artifact-files.js';

/**
 * Finds the files `verify` checks and gives each its Maven repository path:
 * - `--dir`: a Maven-layout staging folder, taken as is;
 * - a Maven build: every module's target/ (the release checkout target/checkout when present),
 *   mapped with the module POM's coordinates; .md5/.sha1 are added when absent because Maven
 *   writes them only while deploying;
 * - a Gradle build: best effort, a Maven-layout folder the build published into
 *   (build/staging-deploy, build/repo, build/m2).
 * Nothing is read here but POMs and folder listings: the files are read when the rules need
 * them, artifacts as streams (see core/validation), so a set of any size costs its listing.
 */
export interface ArtifactSet {
  /** maven path → file (read on demand) */
  files: Map<string, SizedFile>;
  /** maven path → local file, relative to the project root (for findings). */
  origin: Map<string, string>;
  /** Which kind of folder was read, for messages. */
  from: string;
  /** Files and bytes read so far (progress). */
  tally: ReadTally;
  /** Releases what the set holds open (a bundle's zip); safe to call twice. */
  close(): void;
}

const noClose = (): void => undefined;

const skipDirs = new Set(['.git', 'node_modules', '.relctl', 'src', '.gradle', '.idea']);

async function isDir(p: string): Promise<boolean> {
  return (await stat(p).catch(() => undefined))?.isDirectory() === true;
}

async function walk(root: string, out: string[] = [], rel = ''): Promise<string[]> {
  for (const entry of await readdir(path.join(root, rel), { withFileTypes: true })) {
    const r = rel === '' ? entry.name : `${rel}/${entry.name}`;
    if (entry.isDirectory()) await walk(root, out, r);
    else if (entry.isFile()) out.push(r);
  }
  return out;
}

export async function fromMavenLayout(dir: string, cwd: string, tally = newTally()): Promise<ArtifactSet> {
  if (!(await isDir(dir))) throw new UsageError(`${dir} is not a folder.`, { fix: 'Pass a Maven-layout staging folder with --dir.' });
  const files = new Map<string, SizedFile>();
  const origin = new Map<string, string>();
  for (const rel of await walk(dir)) {
    const abs = path.join(dir, rel);
    files.set(rel, diskFile(abs, (await stat(abs)).size, tally));
    origin.set(rel, path.relative(cwd, abs).split(path.sep).join('/'));
  }
  return { files, origin, from: dir, tally, close: noClose };
}

async function mavenModules(root: string, out: string[] = []): Promise<string[]> {
  if (await stat(path.join(root, 'pom.xml')).catch(() => undefined)) out.push(root);
  for (const entry of await readdir(root, { withFileTypes: true }).catch(() => [])) {
    if (!entry.isDirectory() || skipDirs.has(entry.name) || entry.name === 'target') continue;
    await mavenModules(path.join(root, entry.name), out);
  }
  return out;
}

function addChecksums(files: Map<string, SizedFile>, origin: Map<string, string>): void {
  for (const [p, data] of [...files]) {
    if (/\.(md5|sha1|sha256|sha512|asc)$/.test(p)) continue;
    for (const algo of ['md5', 'sha1'] as const) {
      if (!files.has(`${p}.${algo}`)) {
        files.set(`${p}.${algo}`, derivedChecksum(data, algo));
        origin.set(`${p}.${algo}`, `${origin.get(p) ?? p}.${algo}`);
      }
    }
  }
}

/**
 * A Publisher API bundle (central-publishing-maven-plugin's zip): exactly the files that would be
 * uploaded, read entry by entry from the zip (its directory now, each entry's content when the
 * rules read it). The caller closes the set.
 */
export async function fromBundle(zip: string, cwd: string): Promise<ArtifactSet> {
  if ((await stat(zip).catch(() => undefined))?.isFile() !== true) {
    throw new UsageError(`The bundle ${zip} does not exist.`, { fix: 'Run the release build first (relctl release --from build).' });
  }
  const unreadable = (error: unknown): UsageError =>
    new UsageError(`The bundle ${zip} cannot be read: ${(error as Error).message}.`, { fix: 'Rebuild it (relctl release --from build).' });
  const archive = await openZip(zip).catch((error: unknown) => {
    throw unreadable(error);
  });
  const tally = newTally();
  const shown = path.relative(cwd, zip).split(path.sep).join('/');
  const files = new Map<string, SizedFile>();
  for (const entry of archive.entries) {
    // A broken entry (bad size, unknown compression) is the bundle's fault, named as such.
    const open = async function* (): AsyncGenerator<Uint8Array> {
      try {
        yield* entry.chunks();
      } catch (error) {
        throw unreadable(error);
      }
    };
    files.set(entry.name, streamedFile(entry.size, open, tally));
  }
  return { files, origin: new Map([...files.keys()].map((p) => [p, `${shown}!${p}`])), from: shown, tally, close: () => archive.close() };
}

export async function fromMavenTargets(cwd: string): Promise<ArtifactSet> {
  const checkout = path.join(cwd, 'target', 'checkout');
  const root = (await stat(path.join(checkout, 'pom.xml')).catch(() => undefined)) ? checkout : cwd;
  const files = new Map<string, SizedFile>();
  const origin = new Map<string, string>();
  const tally = newTally();
  const unbuilt: string[] = [];
  for (const mod of await mavenModules(root)) {
    // Through the descriptor guard: a FIFO or a device named pom.xml is skipped, never read (it would block).
    const pomText = descriptorText(path.join(mod, 'pom.xml'));
    if (pomText === undefined) continue;
    const c = pomCoordinates(pomText);
    if (c.groupId === undefined || c.artifactId === undefined || c.version === undefined) continue;
    const dir = `${c.groupId.replace(/\./g, '/')}/${c.artifactId}/${c.version}`;
    const base = `${c.artifactId}-${c.version}`;
    const target = path.join(mod, 'target');
    const names = (await isDir(target)) ? (await readdir(target)).filter((n) => n.startsWith(`${base}.`) || n.startsWith(`${base}-`)) : [];
    if (names.length === 0 && c.packaging !== 'pom') {
      unbuilt.push(path.relative(cwd, target).split(path.sep).join('/') || 'target');
      continue;
    }
    const rel = (p: string): string => path.relative(cwd, p).split(path.sep).join('/');
    for (const name of names) {
      if (!/\.(pom|jar|war|ear|aar|zip|module|asc|md5|sha1)$/.test(name)) continue;
      const abs = path.join(target, name);
      files.set(`${dir}/${name}`, diskFile(abs, (await stat(abs)).size, tally));
      origin.set(`${dir}/${name}`, rel(path.join(target, name)));
    }
    if (!files.has(`${dir}/${base}.pom`)) {
      files.set(`${dir}/${base}.pom`, memoryFile(Buffer.from(pomText)));
      origin.set(`${dir}/${base}.pom`, rel(path.join(mod, 'pom.xml')));
    }
    // The gpg command-line signing route (examples/demo, maven-offline.md §6) signs a copy of the
    // POM as target/gpg-pom.xml.asc and attaches it as <base>.pom.asc.
    const cliPomAsc = path.join(target, 'gpg-pom.xml.asc');
    if (!files.has(`${dir}/${base}.pom.asc`) && (await stat(cliPomAsc).catch(() => undefined)) !== undefined) {
      files.set(`${dir}/${base}.pom.asc`, diskFile(cliPomAsc, (await stat(cliPomAsc)).size, tally));
      origin.set(`${dir}/${base}.pom.asc`, rel(cliPomAsc));
    }
  }
  // Checking only the POM-packaged parent of an unbuilt reactor would report its "failures" as
  // if they were the release's: the build has simply not run yet.
  if (files.size === 0 || unbuilt.length > 0) {
    throw new UsageError(`Nothing built yet: run the build first (no built artifacts in ${unbuilt.length === 0 ? root : unbuilt.join(', ')}).`, {
      kind: 'nothing-built',
      fix: 'Build (mvn package, or relctl release runs release:perform), then verify again; or pass a Maven-layout staging folder with --dir.',
    });
  }
  addChecksums(files, origin);
  return { files, origin, from: root === cwd ? 'target/ folders' : 'target/checkout', tally, close: noClose };
}

export async function fromGradleBuild(cwd: string): Promise<ArtifactSet> {
  const candidates = ['build/staging-deploy', 'build/repo', 'build/m2'];
  const roots: string[] = [];
  for (const c of candidates) if (await isDir(path.join(cwd, c))) roots.push(path.join(cwd, c));
  for (const entry of await readdir(cwd, { withFileTypes: true }).catch(() => [])) {
    if (!entry.isDirectory() || skipDirs.has(entry.name) || entry.name === 'build') continue;
    for (const c of candidates) if (await isDir(path.join(cwd, entry.name, c))) roots.push(path.join(cwd, entry.name, c));
  }
  if (roots.length === 0) {
    throw new UsageError('No Maven-layout publication folder in the Gradle build (build/staging-deploy, build/repo or build/m2).', {
      fix: 'Publish to a local folder first (a maven-publish repository pointing at build/staging-deploy), or pass that folder with --dir.',
    });
  }
  const tally = newTally();
  const merged: ArtifactSet = { files: new Map(), origin: new Map(), from: roots.map((r) => path.relative(cwd, r)).join(', '), tally, close: noClose };
  for (const r of roots) {
    const set = await fromMavenLayout(r, cwd, tally);
    for (const [k, v] of set.files) merged.files.set(k, v);
    for (const [k, v] of set.origin) merged.origin.set(k, v);
  }
  return merged;
}

/** The build output of the project in `cwd`: Maven target/ folders or a Gradle publication folder. */
export async function fromBuildOutput(cwd: string): Promise<ArtifactSet> {
  const { detectBuildTool } = await import('../io/build-tool.js');
  return (await detectBuildTool(cwd)) === 'maven' ? fromMavenTargets(cwd) : fromGradleBuild(cwd);
}

/**
 * What nexus-staging-maven-plugin staged locally (`-DskipRemoteStaging=true`): every
 * `target/nexus-staging/staging/<profile>/` of the release checkout (the plugin uses the first
 * module that declares it), in Maven layout, exactly what its `deploy-staged` uploads. Its own
 * bookkeeping (`.index`, `maven-metadata-nexus.xml`) is left out; checksums are derived as the
 * upload sends them.
 */
export async function fromNexusLocalStaging(stagingDirs: readonly string[], cwd: string): Promise<ArtifactSet> {
  const tally = newTally();
  const files = new Map<string, SizedFile>();
  const origin = new Map<string, string>();
  for (const staging of stagingDirs) {
    for (const profile of await readdir(staging, { withFileTypes: true })) {
      if (!profile.isDirectory()) continue;
      const dir = path.join(staging, profile.name);
      for (const rel of await walk(dir)) {
        const name = rel.split('/').pop()!;
        if (name === '.index' || name.startsWith('maven-metadata')) continue;
        const abs = path.join(dir, rel);
        files.set(rel, diskFile(abs, (await stat(abs)).size, tally));
        origin.set(rel, path.relative(cwd, abs).split(path.sep).join('/'));
      }
    }
  }
  if (files.size === 0) throw new UsageError(`nexus-staging-maven-plugin staged nothing locally (looked in ${stagingDirs.map((d) => path.relative(cwd, d)).join(', ') || 'target/checkout'}).`, { fix: 'Run the release build again (relctl release --restart).' });
  addChecksums(files, origin);
  return { files, origin, from: stagingDirs.map((d) => path.relative(cwd, d)).join(', '), tally, close: noClose };
}
