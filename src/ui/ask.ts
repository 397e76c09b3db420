/**
 * One yes/no question on the terminal. enquirer is loaded only when a question is asked; callers
 * decide first whether anyone can be asked (CommandContext.canPrompt).
 */
export async function askYesNo(question: string, initial: boolean): Promise<boolean> {
  const { default: enquirer } = await import('enquirer');
  const answer = (await enquirer.prompt({ type: 'confirm', name: 'ok', message: question, initial })) as { ok: boolean };
  return answer.ok;
}
