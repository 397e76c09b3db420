/**
 * GitHub's runner reads every line a step prints, stdout and stderr, for workflow commands: a line
 * that starts with `::` once leading whitespace is trimmed and holds a second `::` (`::error
 * title=X::Y`, `::add-mask::x`, `::stop-commands::t`), and the legacy `##[name]` anywhere in a line
 * (actions/runner ActionCommand.TryParseV2 and TryParse). A developer's name, a file name or a
 * server's answer printed by relctl must never be one, so the output rule makes such lines inert,
 * as the runner itself does for its own markers (`##[\start-action`).
 *
 * Always, not only under GITHUB_ACTIONS: the variable does not reach a `docker run` or `ssh` in a
 * step whose output still lands in the log, and an inert line reads the same to a person.
 */

// Whitespace as .NET's TrimStart sees it (JS `\s` is a superset); C1's NEL is gone by then (plainText).
const commandStart = /^([^\S\n]*)::(?=.*::)/gm;
const legacyCommand = /##\[/g;

/** No line of `text` is a workflow command: a leading `::` becomes `\::`, every `##[` becomes `##[\`. */
export function inertCommands(text: string): string {
  return inertLegacyCommands(text).replace(commandStart, '$1\\::');
}

/** Every `##[` becomes `##[\`: for a string inside a JSON document, or a line relctl means as a `::` command. */
export function inertLegacyCommands(text: string): string {
  return text.includes('##[') ? text.replace(legacyCommand, '##[\\') : text;
}
