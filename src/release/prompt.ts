import { UsageError } from '../core/errors.js';
import type { CommandContext } from '../commands/context.js';

/** Yes/no: --yes answers yes; a terminal asks; anywhere else it is a usage error naming --yes. */
export async function confirm(ctx: CommandContext, yes: boolean, question: string, fixWithoutTerminal: string): Promise<void> {
  if (yes) return;
  if (!ctx.canPrompt) {
    throw new UsageError(`"${question}" needs an answer and no one can be asked here (CI, no terminal, or --json).`, {
      kind: 'prompt-needed',
      fix: fixWithoutTerminal,
    });
  }
  const { default: enquirer } = await import('enquirer');
  const answer = (await enquirer.prompt({ type: 'confirm', name: 'ok', message: question, initial: true })) as { ok: boolean };
  if (!answer.ok) {
    throw new UsageError('Stopped at your answer.', { kind: 'declined', fix: 'Change what needs changing, then run `relctl release --resume`.' });
  }
}
