import { readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { DataDir, StateFile } from '../shared/persistence.js';
import { inNamespace } from '../shared/namespaces.js';

/**
 * The portal's snapshot repository (`/repository/maven-snapshots/`, central.sonatype.org
 * "Publishing -SNAPSHOT Releases"): a plain Maven repository that keeps what `mvn deploy` PUTs
 * (timestamped files, checksums, maven-metadata.xml) and serves it back. No validation, as on the
 * portal. It takes uploads only into namespaces whose SNAPSHOTs were enabled ("Enable SNAPSHOTs"
 * on the portal's Namespaces page); that switch is per namespace and survives restarts.
 */
export class SnapshotRepository {
  private enabled: Set<string>;

  constructor(
    private readonly dir: DataDir,
    readonly root: string,
    private readonly state: StateFile,
    private readonly initial: readonly string[] = [],
  ) {
    const saved = state.saved('snapshotNamespaces');
    this.enabled = new Set(Array.isArray(saved) ? saved.filter((n): n is string => typeof n === 'string') : initial);
    state.own('snapshotNamespaces', () => [...this.enabled].sort());
  }

  /** Namespaces with SNAPSHOTs enabled, sorted. */
  get namespaces(): string[] {
    return [...this.enabled].sort();
  }

  /** True when a deploy below `group` (dotted) lands in a namespace with SNAPSHOTs enabled. */
  enabledFor(group: string): boolean {
    return [...this.enabled].some((ns) => inNamespace(group, ns));
  }

  /** The portal's "Enable SNAPSHOTs" (and its reverse, for tests that need the 403 back). */
  async setEnabled(namespace: string, on: boolean): Promise<void> {
    if (on) this.enabled.add(namespace);
    else this.enabled.delete(namespace);
    await this.state.save();
  }

  private file(segments: readonly string[]): string {
    const file = path.resolve(this.root, ...segments);
    if (!file.startsWith(this.root + path.sep)) throw new Error(`path escapes the store: ${segments.join('/')}`);
    return file;
  }

  /** A deployed file replaces the one before it: snapshots and their metadata are meant to change. */
  async put(segments: readonly string[], body: Uint8Array): Promise<void> {
    await this.dir.writeAtomic(this.file(segments), body);
  }

  async get(segments: readonly string[]): Promise<Buffer | undefined> {
    const file = this.file(segments);
    if ((await stat(file).catch(() => undefined))?.isFile() !== true) return undefined;
    return readFile(file).catch(() => undefined);
  }

  /** Forgets every deployed snapshot and puts the switches back as the sandbox started. */
  async reset(): Promise<void> {
    await rm(this.root, { recursive: true, force: true });
    await this.dir.folder(path.basename(this.root));
    this.enabled = new Set(this.initial);
  }
}
