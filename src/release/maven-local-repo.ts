import os from 'node:os';
import { localRepoFor } from '../build-tools/maven/settings.js';
import type { CommandContext } from '../io/command-context.js';

/** Where Maven keeps parent POMs for this run, as preflight reads it: --local-repo, else the settings' <localRepository>. */
export function localRepoOfContext(ctx: CommandContext): Promise<string> {
  return localRepoFor({
    ...(ctx.config.localRepo === undefined ? {} : { localRepo: ctx.config.localRepo }),
    ...(ctx.config.settings === undefined ? {} : { settingsFile: ctx.config.settings }),
    env: ctx.env,
    home: ctx.env.HOME ?? os.homedir(),
  });
}
