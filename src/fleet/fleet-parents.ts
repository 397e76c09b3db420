/**
 * A fleet's own parents (DESIGN §13, In-fleet parents): a `<parent>` that a fleet repository
 * builds is read from that repository, at the tag of the version asked for, or at the default
 * branch's tip when the tip has that version; never only from the public repository, which may
 * lack a version a tag claims, and never from the local repository's copy, which may be another
 * build. A tag's POM is written once per run under the workspace (Maven's layout), where the
 * audit's loader reads it.
 */
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ParentRef } from '../core/pom/index.js';
import { repositoryPom } from '../core/maven-coordinates.js';
import { existingTag } from '../core/tag-forms.js';
import { chooseTagTemplate } from '../core/tag-format-inference.js';
import type { PreferredParents } from '../build-tools/maven/load.js';
import { runGit } from '../io/git.js';
import type { FleetPomIndex } from './pom-index.js';

/** A cloned fleet repository, as the parent source needs it. */
export interface ClonedRepo {
  dir: string;
  /** Its tags (read once per run). */
  tags(): Promise<string[]>;
}

/** Where a parent came from, for the report and --verbose. */
export type ParentOrigin = { repo: string; at: string } | { repo: string; at: undefined; why: string };

export class FleetParents implements PreferredParents {
  private readonly found = new Map<string, Promise<string | undefined>>();
  /** `groupId:artifactId:version` → where it was read (or why it was not). */
  readonly origins = new Map<string, ParentOrigin>();

  constructor(
    private readonly index: FleetPomIndex,
    private readonly clones: ReadonlyMap<string, ClonedRepo>,
    /** `<workdir>/.relctl/parents`: a folder of relctl's own. */
    private readonly folder: string,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  claims(ref: ParentRef): boolean {
    const built = this.index.builder(ref.groupId, ref.artifactId);
    return built !== undefined && this.clones.has(built.repo) && ref.version !== undefined && !ref.version.includes('${');
  }

  find(ref: ParentRef): Promise<string | undefined> {
    const key = `${ref.groupId}:${ref.artifactId}:${ref.version}`;
    let p = this.found.get(key);
    if (p === undefined) {
      p = this.read(ref, key);
      this.found.set(key, p);
    }
    return p;
  }

  private async read(ref: ParentRef, key: string): Promise<string | undefined> {
    const built = this.index.builder(ref.groupId, ref.artifactId)!;
    const clone = this.clones.get(built.repo)!;
    const version = ref.version!;
    if (built.version === version) {
      this.origins.set(key, { repo: built.repo, at: 'HEAD' });
      return path.join(clone.dir, ...built.file.split('/'));
    }
    const tags = await clone.tags();
    const tag = tagOf(new Set(tags), tags, built.artifactId, version);
    if (tag === undefined) {
      this.origins.set(key, { repo: built.repo, at: undefined, why: `${built.repo} has no tag of ${version} and its tip is at ${built.version ?? 'an unknown version'}` });
      return undefined;
    }
    const shown = await runGit(clone.dir, ['show', `refs/tags/${tag}:${built.file}`], { env: this.env });
    if (!shown.ok) {
      this.origins.set(key, { repo: built.repo, at: undefined, why: `${built.file} is not in ${built.repo} at tag ${tag}` });
      return undefined;
    }
    // Maven's layout under relctl's own folder, for coordinates in Maven's syntax only (a path proven inside it).
    const file = repositoryPom(this.folder, ref);
    if (file === undefined) {
      this.origins.set(key, { repo: built.repo, at: undefined, why: `its coordinates are not Maven's syntax, so no path is made of them` });
      return undefined;
    }
    await mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    await writeFile(tmp, shown.stdout + '\n');
    await rename(tmp, file);
    this.origins.set(key, { repo: built.repo, at: `tag ${tag}` });
    return file;
  }
}

/** The tag of `version` in the forms preflight knows, else in the format the repository's tags show. */
function tagOf(tags: ReadonlySet<string>, list: readonly string[], artifactId: string, version: string): string | undefined {
  const standard = existingTag(tags, artifactId, version);
  if (standard !== undefined) return standard;
  const learned = chooseTagTemplate(undefined, list, [version], artifactId).template;
  return learned === undefined ? undefined : existingTag(tags, artifactId, version, learned);
}
