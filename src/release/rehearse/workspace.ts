import { cp, stat } from 'node:fs/promises';
import path from 'node:path';

/** What never goes into the rehearsal copy: VCS data, the journal, tool caches. */
const excluded = new Set(['.git', '.relctl', 'node_modules', '.gradle', '.idea']);
/** Build output, but only beside a build file: a Java package may be named `build` or `target`. */
const outputs = new Set(['target', 'build']);
const buildFiles = ['pom.xml', 'build.gradle', 'build.gradle.kts', 'settings.gradle', 'settings.gradle.kts'];

async function isBuildOutput(p: string): Promise<boolean> {
  if (!outputs.has(path.basename(p))) return false;
  for (const f of buildFiles) if ((await stat(path.join(path.dirname(p), f)).catch(() => undefined))?.isFile() === true) return true;
  return false;
}

/** Copies the working tree as it is (uncommitted edits included) into `dest`. */
export async function copyProject(src: string, dest: string): Promise<void> {
  await cp(src, dest, { recursive: true, filter: async (p) => p === src || (!excluded.has(path.basename(p)) && !(await isBuildOutput(p))) });
}
