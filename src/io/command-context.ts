import type { Config, SettingSource } from '../core/config/resolve.js';
import type { SettingKey } from '../core/config/settings.js';
import type { Output } from '../ui/output.js';

/** What every command's run() receives. Commands never read process.* themselves. */
export interface CommandContext {
  cwd: string;
  out: Output;
  config: Config;
  configSources: Partial<Record<SettingKey, SettingSource>>;
  env: NodeJS.ProcessEnv;
  /** True when a prompt may be shown: a TTY on stdin and stderr, not CI, not --json. */
  canPrompt: boolean;
  ci: boolean;
  signal: AbortSignal;
}
