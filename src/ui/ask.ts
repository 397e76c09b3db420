import { InterruptedError } from '../core/errors.js';

/**
 * One yes/no question on the terminal. enquirer is loaded only when a question is asked; callers
 * decide first whether anyone can be asked (CommandContext.canPrompt).
 */
export async function askYesNo(question: string, initial: boolean): Promise<boolean> {
  const { default: enquirer } = await import('enquirer');
  try {
    const answer = (await enquirer.prompt({ type: 'confirm', name: 'ok', message: question, initial })) as { ok: boolean };
    return answer.ok;
  } catch (error) {
    // The terminal is in raw mode during the question: Ctrl-C reaches enquirer, not a signal
    // handler, and enquirer rejects without an Error. It is the user's interrupt all the same.
    if (error instanceof Error) throw error;
    throw new InterruptedError(`Interrupted at the question "${question}".`, { fix: 'Run the command again when ready.' });
  }
}

/** One choice among a few values on the terminal (same conditions as askYesNo). */
export async function askChoice<T extends string>(question: string, choices: readonly T[], initial: T | undefined): Promise<T> {
  const { default: enquirer } = await import('enquirer');
  try {
    const answer = (await enquirer.prompt({
      type: 'select',
      name: 'value',
      message: question,
      choices: [...choices],
      ...(initial === undefined ? {} : { initial: choices.indexOf(initial) }),
    })) as { value: T };
    return answer.value;
  } catch (error) {
    if (error instanceof Error) throw error;
    throw new InterruptedError(`Interrupted at the question "${question}".`, { fix: 'Run the command again when ready.' });
  }
}

/** One line of text on the terminal, checked by `problem` (undefined: accepted). */
export async function askText(question: string, initial: string | undefined, problem: (value: string) => string | undefined): Promise<string> {
  const { default: enquirer } = await import('enquirer');
  try {
    const answer = (await enquirer.prompt({
      type: 'input',
      name: 'value',
      message: question,
      ...(initial === undefined ? {} : { initial }),
      validate: (value: string) => problem(value.trim()) ?? true,
    })) as { value: string };
    return answer.value.trim();
  } catch (error) {
    if (error instanceof Error) throw error;
    throw new InterruptedError(`Interrupted at the question "${question}".`, { fix: 'Run the command again when ready.' });
  }
}
