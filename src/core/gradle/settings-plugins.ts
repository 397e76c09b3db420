/**
 * Plugins a settings script applies in its top-level `plugins {}` block (not the declarations of
 * `pluginManagement { plugins {} }`): settings plugins such as `com.gradleup.nmcp.settings`,
 * which publish the whole build. Pure; never throws.
 */
import { tokenize } from './lexer.js';
import { statements } from './statements.js';
import { applyFalseAt, normalisePluginId, pluginsFromBlock, pluginVersion } from './plugin-statements.js';

export interface SettingsPlugin {
  id: string;
  line: number;
  version?: string;
}

export function settingsPlugins(text: string): SettingsPlugin[] {
  const out: SettingsPlugin[] = [];
  for (const s of statements(tokenize(text))) {
    if (s.path.length !== 1 || s.path[0]!.name !== 'plugins' || applyFalseAt(s.tokens) >= 0) continue;
    const id = pluginsFromBlock(s);
    if (id === undefined) continue;
    const version = pluginVersion(s);
    out.push({ id: normalisePluginId(id), line: s.line, ...(version === undefined ? {} : { version }) });
  }
  return out;
}
