import { chooseTagTemplate } from '../core/tag-format-inference.js';
import type { CommandContext } from '../io/command-context.js';
import type { ProjectIdentity } from '../io/project.js';

/**
 * The project with the tag format its own tags show (`rel_3_30_2_ga` for `3.30.2-GA`) when the
 * build configures none relctl can fill and no tag is in a standard form: the release tags, and
 * the `-Dtag=` the build gets, follow the project's format. --verbose says what was learned.
 */
export function withLearnedTagFormat(ctx: CommandContext, id: ProjectIdentity, tags: readonly string[]): ProjectIdentity {
  const choice = chooseTagTemplate(id.tagTemplate, tags, [id.version], id.artifactId);
  if (choice.note !== undefined) ctx.out.verbose(choice.note);
  return choice.learned === undefined || choice.template === undefined ? id : { ...id, tagTemplate: choice.template };
}
