import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from '../../core/errors.js';
import type { CommandContext } from '../../io/command-context.js';

/**
 * The notes the notices and the distribution pull request carry: `--notes FILE` when given, else
 * the release notes of `relctl notes` (the notes core, without the tracker look-ups: composing a
 * mail asks no tracker). `previous` is the release the notes start after.
 */
export async function notesText(ctx: CommandContext, input: { version: string; file?: string }): Promise<{ text: string; previous?: string }> {
  const { buildNotes, notesHttp } = await import('../../notes/build.js');
  const http = notesHttp(ctx);
  try {
    const notes = await buildNotes(ctx, { releaseVersion: input.version, offline: true, strict: false }, http);
    const previous = notes.previous === undefined ? {} : { previous: notes.previous };
    if (input.file === undefined) return { text: notes.markdown.trim(), ...previous };
    const file = path.resolve(ctx.cwd, input.file);
    const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
      throw new UsageError(`--notes ${input.file}: cannot be read (${error.code ?? error.message}).`, { fix: 'Pass a readable text or Markdown file.' });
    });
    return { text: text.trim(), ...previous };
  } finally {
    await http.close();
  }
}
