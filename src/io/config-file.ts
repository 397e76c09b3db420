import path from 'node:path';
import { UsageError } from '../core/errors.js';
import { resolveConfig, validateConfigFile, type ResolvedConfig } from '../core/config/resolve.js';
import type { ConfigSections } from '../core/config/sections.js';
import type { FindingRules } from '../core/finding-rules.js';
import type { SettingKey } from '../core/config/settings.js';
import { readDescriptor } from './descriptor.js';

export const configFileName = 'relctl.config.json';

/** Reads relctl.config.json from the project root (if any) and merges every layer. */
export async function loadConfig(
  cwd: string,
  flags: Partial<Record<SettingKey, unknown>>,
  env: NodeJS.ProcessEnv,
): Promise<ResolvedConfig> {
  const file = path.join(cwd, configFileName);
  const read = readDescriptor(file);
  if (!read.ok && read.problem !== 'missing') {
    throw new UsageError(`${configFileName} (${file}) ${read.reason}.`, {
      kind: 'invalid-config',
      fix: `Make ${configFileName} a readable regular file, or remove it.`,
    });
  }
  const text = read.ok ? read.text : undefined;
  let fileValues: Partial<Record<SettingKey, unknown>> = {};
  let sections: ConfigSections & { rules?: FindingRules } = {};
  if (text !== undefined) {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new UsageError(`${configFileName} is not valid JSON: ${(error as Error).message}.`, {
        kind: 'invalid-config',
        fix: `Fix the JSON syntax of ${configFileName}.`,
      });
    }
    const { values, sections: fileSections, problems } = validateConfigFile(json);
    if (problems.length > 0) {
      throw new UsageError(
        `${configFileName} (${file}) is invalid: ${problems.map((p) => `"${p.key}" ${p.message}`).join('; ')}.`,
        { kind: 'invalid-config', fix: `Correct ${configFileName}; its JSON Schema ships in schema/relctl.config.schema.json.` },
      );
    }
    fileValues = values;
    sections = fileSections;
  }
  return resolveConfig({ flags, env, file: fileValues, sections, fileName: configFileName });
}
