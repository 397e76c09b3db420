import { cp, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setGradleVersion, setPomVersion } from '../../core/release-commands.js';

/** What never goes into the rehearsal copy: build output, VCS data, the journal. */
const excluded = new Set(['target', 'build', '.git', '.relctl', 'node_modules', '.gradle', '.idea']);

/** Copies the working tree as it is (uncommitted edits included) into `dest`. */
export async function copyProject(src: string, dest: string): Promise<void> {
  await cp(src, dest, { recursive: true, filter: (p) => !excluded.has(path.basename(p)) || p === src });
}

async function walkPoms(dir: string, out: string[] = []): Promise<string[]> {
  for (const e of await readdir(dir, { withFileTypes: true })) {
    if (e.isDirectory() && !excluded.has(e.name)) await walkPoms(path.join(dir, e.name), out);
    else if (e.isFile() && e.name === 'pom.xml') out.push(path.join(dir, e.name));
  }
  return out;
}

/** Sets the release version in the copy as text, as release:prepare would (formatting kept). */
export async function setReleaseVersion(dir: string, buildTool: 'maven' | 'gradle', current: string, release: string): Promise<number> {
  if (buildTool === 'gradle') {
    const file = path.join(dir, 'gradle.properties');
    const text = await readFile(file, 'utf8').catch(() => undefined);
    if (text === undefined) return 0;
    await writeFile(file, setGradleVersion(text, release));
    return 1;
  }
  let changed = 0;
  for (const file of await walkPoms(dir)) {
    const text = await readFile(file, 'utf8');
    const next = setPomVersion(text, current, release);
    if (next !== text) {
      await writeFile(file, next);
      changed++;
    }
  }
  return changed;
}
