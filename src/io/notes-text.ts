import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from '../core/errors.js';
import { previousRelease, releaseTagVersions } from '../core/post-release/release-tags.js';
import { runGit } from './git.js';

/**
 * The notes text the notices and the distribution pull request carry: `--notes FILE` when given,
 * else a short list of commit subjects since the previous release tag (no merges, no release
 * tool commits).
 */
const releaseToolCommit = /^\[maven-release-plugin\]|^\[Gradle Release Plugin\]|^chore: pre-release prep$/;

export async function notesText(
  cwd: string,
  env: NodeJS.ProcessEnv,
  input: { file?: string; artifactId: string; version: string; tags: readonly string[] },
): Promise<{ text: string; previous?: string }> {
  const previous = previousRelease(input.tags, input.artifactId, input.version);
  if (input.file !== undefined) {
    const file = path.resolve(cwd, input.file);
    const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
      throw new UsageError(`--notes ${input.file}: cannot be read (${error.code ?? error.message}).`, { fix: 'Pass a readable text or Markdown file.' });
    });
    return { text: text.trim(), ...(previous === undefined ? {} : { previous: previous.version }) };
  }
  const own = releaseTagVersions(input.tags, input.artifactId).find((t) => t.version === input.version);
  const end = own?.tag ?? 'HEAD';
  const range = previous === undefined ? end : `${previous.tag}..${end}`;
  const log = await runGit(cwd, ['log', '--no-merges', '--format=%s', range], { env });
  const subjects = log.ok ? log.stdout.split('\n').filter((s) => s.trim() !== '' && !releaseToolCommit.test(s)) : [];
  return { text: subjects.map((s) => `- ${s}`).join('\n'), ...(previous === undefined ? {} : { previous: previous.version }) };
}
