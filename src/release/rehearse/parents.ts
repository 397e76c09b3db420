import { copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { parsePom, type ParentRef } from '../../core/pom/index.js';
import { repositoryPomPath } from '../../build-tools/maven/load.js';
import { reactorModels } from '../../build-tools/maven-release.js';
import { descriptorText } from '../../io/descriptor.js';

/** A parent chain deeper than this is a cycle or a mistake (the portal's validation gives up too). */
const maxDepth = 16;

/**
 * The rehearsal's portal sees what the real portal sees (issue 19 item 2): the real portal
 * resolves a module's parents from Central, so metadata a module inherits from a published parent
 * (jasig-parent's <licenses>, <url>) counts. The sandbox's public repository gets every parent
 * outside the reactor, as the build resolved it (from the local repository), before validation.
 * Returns the Maven paths it seeded.
 */
export async function seedParents(releaseRoot: string, localRepo: string, seedRepo: string): Promise<string[]> {
  const modules = await reactorModels(releaseRoot);
  const reactor = new Set(modules.map((m) => `${m.groupId?.value ?? m.parent?.groupId}:${m.artifactId?.value}`));
  const seeded: string[] = [];
  const seen = new Set<string>();
  const seed = async (ref: ParentRef | undefined, depth: number): Promise<void> => {
    if (ref === undefined || depth > maxDepth) return;
    const key = `${ref.groupId}:${ref.artifactId}`;
    if (reactor.has(key) || seen.has(`${key}:${ref.version}`)) return;
    seen.add(`${key}:${ref.version}`);
    const file = repositoryPomPath(localRepo, ref);
    const text = file === undefined ? undefined : descriptorText(file);
    if (file === undefined || text === undefined) return;
    const rel = path.relative(localRepo, file);
    await mkdir(path.dirname(path.join(seedRepo, rel)), { recursive: true });
    await copyFile(file, path.join(seedRepo, rel));
    seeded.push(rel.split(path.sep).join('/'));
    const parsed = parsePom(text);
    if (parsed.ok) await seed(parsed.pom.parent, depth + 1);
  };
  for (const m of modules) await seed(m.parent, 0);
  return seeded;
}
