import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from '../../core/errors.js';
import { plainText } from '../../core/plain-text.js';
import type { CommandContext } from '../../io/command-context.js';

/**
 * The notes the notices and the distribution pull request carry: `--notes FILE` when given, else
 * exactly the release notes of `relctl notes` (DESIGN §11, one source for the content): the same
 * range from the last *published* release (the public repository is asked, the journal's orphans
 * count) and the same sections and supersedes lines, only without the tracker look-ups (composing
 * a mail asks no tracker). When the public repository cannot be asked, it warns and falls back as
 * `notes` does. `previous` is the release the notes start after, `skipped` the orphans between.
 */
export async function notesText(ctx: CommandContext, input: { version: string; file?: string }): Promise<{ text: string; previous?: string; skipped?: string[] }> {
  const { buildNotes, notesHttp } = await import('../../notes/build.js');
  const http = notesHttp(ctx);
  try {
    const notes = await buildNotes(ctx, { releaseVersion: input.version, offline: false, tracker: false, strict: false }, http);
    const previous = { ...(notes.previous === undefined ? {} : { previous: notes.previous }), skipped: notes.skipped };
    if (input.file === undefined) return { text: notes.markdown.trim(), ...previous };
    const file = path.resolve(ctx.cwd, input.file);
    const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
      throw new UsageError(`--notes ${input.file}: cannot be read (${error.code ?? error.message}).`, { fix: 'Pass a readable text or Markdown file.' });
    });
    // A file's escape sequences would reach the mail and the pull request like a commit's would.
    return { text: plainText(text).trim(), ...previous };
  } finally {
    await http.close();
  }
}
