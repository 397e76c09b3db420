import { UsageError } from '../core/errors.js';
import type { CommandContext } from '../io/command-context.js';
import { askYesNo } from '../ui/ask.js';

/** Yes/no: --yes answers yes; a terminal asks; anywhere else it is a usage error naming --yes. */
export async function confirm(ctx: CommandContext, yes: boolean, question: string, fixWithoutTerminal: string): Promise<void> {
  if (yes) return;
  if (!ctx.canPrompt) {
    throw new UsageError(`"${question}" needs an answer and no one can be asked here (CI, no terminal, or --json).`, {
      kind: 'prompt-needed',
      fix: fixWithoutTerminal,
    });
  }
  if (!(await askYesNo(question, true))) {
    throw new UsageError('Stopped at your answer.', { kind: 'declined', fix: 'Change what needs changing, then run `relctl release --resume`.' });
  }
}
