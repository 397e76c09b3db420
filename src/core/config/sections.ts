/**
 * The object-valued keys of relctl.config.json (DESIGN §2): settings that only the file holds,
 * with no flag or environment variable of their own. Each section validates itself and
 * publishes its JSON Schema. Secrets are never accepted here either.
 */
export interface TrackerConfig {
  /** GitHub `owner/name` whose issues `#N` refers to and whose release page notes publish. */
  repo?: string;
  /** Jira project keys (`UP`): `UP-123` in a commit message is a Jira issue. */
  jiraProjects?: string[];
}

export interface ConfigSections {
  tracker?: TrackerConfig;
}
export const sectionKeys = ['tracker'] as const;
export type SectionKey = (typeof sectionKeys)[number];

export function isSectionKey(key: string): key is SectionKey {
  return (sectionKeys as readonly string[]).includes(key);
}

/** Problems of one section's value (empty when valid) and its normalised form. */
export function validateSection(key: SectionKey, value: unknown): { problems: string[]; value?: TrackerConfig } {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { problems: ['must be a JSON object'] };
  const problems: string[] = [];
  const out: TrackerConfig = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (k === 'repo') {
      if (typeof v !== 'string' || !/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/.test(v.trim())) problems.push(`${key}.repo must be "owner/name"`);
      else out.repo = v.trim();
    } else if (k === 'jiraProjects') {
      if (!Array.isArray(v) || v.some((p) => typeof p !== 'string' || !/^[A-Z][A-Z0-9_]*$/.test(p))) {
        problems.push(`${key}.jiraProjects must be a list of upper-case Jira project keys such as ["UP"]`);
      } else out.jiraProjects = [...(v as string[])];
    } else problems.push(`${key}.${k} is not a known key (known: repo, jiraProjects)`);
  }
  return problems.length > 0 ? { problems } : { problems, value: out };
}

export const configSectionSchemas: Record<SectionKey, Record<string, unknown>> = {
  tracker: {
    description: 'issue tracker of the release notes (relctl notes)',
    type: 'object',
    additionalProperties: false,
    properties: {
      repo: { type: 'string', pattern: '^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$', description: 'GitHub owner/name (default: the origin remote)' },
      jiraProjects: { type: 'array', items: { type: 'string', pattern: '^[A-Z][A-Z0-9_]*$' }, description: 'Jira project keys, e.g. ["UP"]' },
    },
  },
};
