import { UsageError } from '../errors.js';
import { isSectionKey, sectionKeys, validateSection, type ConfigSections } from './sections.js';
import { groupIdProblem } from '../identifiers.js';
import { settingKeys, settingSpecs, type SettingKey, type SettingSpec } from './settings.js';
import { validateFindingRules, type FindingRules } from '../finding-rules.js';
import { validatePublishingLimits, type PublishingLimitsConfig } from '../publishing-budget.js';

/** Keys of the file that are neither flat settings nor sections: their own validators. */
type FileExtras = { rules?: FindingRules; publishingLimits?: PublishingLimitsConfig };

export type SettingSource = 'flag' | 'env' | 'file' | 'default';

/** The flat settings, plus the file's object-valued sections (tracker, distribution, mail). */
export interface Config extends ConfigSections {
  stagingApiUrl: string;
  portalUrl: string;
  publicRepoUrl: string;
  keyserverUrl: string;
  secondaryKeyserverUrl: string;
  settings?: string;
  localRepo?: string;
  groupId?: string;
  /** The portal namespace, when given (else resolved from the groupId, portal/namespace.ts). */
  namespace?: string;
  /** Uppercase, no 0x. */
  fingerprint?: string;
  /** Seconds. */
  timeout: number;
  githubApiUrl: string;
  jiraUrl?: string;
  /** Checksum files the release build uploads: `required` (.md5/.sha1, the default) or `all`. */
  checksums: 'required' | 'all';
  /** The file's `rules`: finding code → off | warning | error (DESIGN §3). */
  rules?: FindingRules;
  /** The month's publishing limits (DESIGN §5a): absent = the free tier, false = Publisher Pro. */
  publishingLimits?: PublishingLimitsConfig;
}

export interface ResolvedConfig {
  config: Config;
  sources: Partial<Record<SettingKey, SettingSource>>;
}

const secretLikeKeys = /token|password|secret|passphrase/i;

export interface ConfigProblem {
  key: string;
  message: string;
}

/**
 * Validates the parsed contents of relctl.config.json. Pure: returns every problem at once so
 * the user fixes the file in one go.
 */
export function validateConfigFile(json: unknown): {
  values: Partial<Record<SettingKey, unknown>>;
  sections: ConfigSections & FileExtras;
  problems: ConfigProblem[];
} {
  const problems: ConfigProblem[] = [];
  const values: Partial<Record<SettingKey, unknown>> = {};
  const sections: ConfigSections & FileExtras = {};
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    return { values, sections, problems: [{ key: '(root)', message: 'must be a JSON object' }] };
  }
  for (const [key, value] of Object.entries(json)) {
    if (key === '$schema') continue;
    if (key === 'rules') {
      const checked = validateFindingRules(value);
      for (const message of checked.problems) problems.push({ key, message });
      if (checked.value !== undefined) sections.rules = checked.value;
      continue;
    }
    if (key === 'publishingLimits') {
      const checked = validatePublishingLimits(value);
      for (const message of checked.problems) problems.push({ key, message });
      if (checked.value !== undefined) sections.publishingLimits = checked.value;
      continue;
    }
    if (isSectionKey(key)) {
      const checked = validateSection(key, value);
      for (const message of checked.problems) problems.push({ key, message });
      if (checked.value !== undefined) sections[key] = checked.value;
      continue;
    }
    if (!(settingKeys as readonly string[]).includes(key)) {
      const hint = secretLikeKeys.test(key)
        ? 'secrets do not belong in a committed file: set RELCTL_TOKEN_USERNAME and RELCTL_TOKEN_PASSWORD instead'
        : `known keys: ${[...settingKeys, ...sectionKeys, 'rules', 'publishingLimits'].join(', ')}`;
      problems.push({ key, message: `unknown key (${hint})` });
      continue;
    }
    const spec = settingSpecs.find((s) => s.key === key)!;
    const problem = checkValue(spec, value);
    if (problem !== undefined) problems.push({ key, message: problem });
    else values[spec.key] = normalise(spec, value);
  }
  return { values, sections, problems };
}

function checkValue(spec: SettingSpec, value: unknown): string | undefined {
  if (spec.type === 'positiveInteger') {
    const n = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) return 'must be a whole number of 1 or more';
    return undefined;
  }
  if (typeof value !== 'string' || value.trim() === '') return 'must be a non-empty string';
  if (spec.type === 'url') {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return `"${value}" is not a URL`;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return `"${value}" must be an http or https URL`;
    if (url.username !== '' || url.password !== '') return 'must not carry credentials; use RELCTL_TOKEN_USERNAME / RELCTL_TOKEN_PASSWORD';
  }
  if (spec.type === 'groupId') {
    const problem = groupIdProblem(value.trim());
    if (problem !== undefined) return `"${value}" is ${problem}`;
  }
  if (spec.type === 'checksums' && !['required', 'all'].includes(value.trim())) {
    return `"${value}" must be "required" (.md5 and .sha1) or "all" (also .sha256 and .sha512)`;
  }
  if (spec.type === 'fingerprint' && !/^(0x)?[0-9a-f]{40}$/i.test(value.replace(/\s+/g, ''))) {
    return `"${value}" is not a 40-hex-digit key fingerprint`;
  }
  return undefined;
}

function normalise(spec: SettingSpec, value: unknown): unknown {
  if (spec.type === 'positiveInteger') return Number(value);
  const s = String(value).trim();
  if (spec.type === 'url') return s.replace(/\/+$/, '');
  if (spec.type === 'fingerprint') return s.replace(/\s+/g, '').replace(/^0x/i, '').toUpperCase();
  return s;
}

export interface ConfigLayers {
  flags: Partial<Record<SettingKey, unknown>>;
  env: Record<string, string | undefined>;
  file: Partial<Record<SettingKey, unknown>>;
  /** The file's object-valued keys (and its rules), validated already. */
  sections?: ConfigSections & FileExtras;
  /** For messages: where the file layer came from. */
  fileName?: string;
}

/**
 * Merges flags > RELCTL_* environment > relctl.config.json > defaults. Flag and environment
 * values are validated with the same rules as the file; a bad one is a UsageError naming it.
 */
export function resolveConfig(layers: ConfigLayers): ResolvedConfig {
  const merged: Record<string, unknown> = {};
  const sources: Partial<Record<SettingKey, SettingSource>> = {};
  const problems: string[] = [];
  for (const spec of settingSpecs) {
    const candidates: [SettingSource, unknown, string][] = [
      ['flag', layers.flags[spec.key], spec.flag.split(' ')[0]!],
      ['env', layers.env[spec.env], spec.env],
      ['file', layers.file[spec.key], `${layers.fileName ?? 'relctl.config.json'} key "${spec.key}"`],
    ];
    const hit = candidates.find(([, v]) => v !== undefined && v !== '');
    if (hit === undefined) {
      if (spec.default !== undefined) {
        merged[spec.key] = spec.default;
        sources[spec.key] = 'default';
      }
      continue;
    }
    const [source, value, label] = hit;
    const problem = checkValue(spec, value);
    if (problem !== undefined) {
      problems.push(`${label}: ${problem}`);
      continue;
    }
    merged[spec.key] = normalise(spec, value);
    sources[spec.key] = source;
  }
  if (problems.length > 0) {
    throw new UsageError(`Invalid configuration: ${problems.join('; ')}.`, {
      kind: 'invalid-config',
      fix: 'Correct the value named above (flags override RELCTL_* variables, which override relctl.config.json).',
    });
  }
  return { config: { ...(merged as unknown as Config), ...layers.sections }, sources };
}
