/**
 * The object-valued keys of relctl.config.json (DESIGN §2, §11): `tracker` {repo, jiraProjects}
 * for the notes, `distribution` {repo, property, smoke, image} and `mail` {from, dev, user,
 * announce} for the post-release chores. They have no flag or RELCTL_* variable (they describe
 * the project, not the machine), so they live apart from the flat settings table; one field
 * table drives validation and the JSON Schema.
 * Secrets never belong here: the SMTP password travels in RELCTL_SMTP_URL, the registry
 * password in RELCTL_REGISTRY_PASSWORD.
 */
type FieldType = 'string' | 'addresses' | 'positiveInteger' | 'boolean' | 'url' | 'command' | 'ownerName' | 'jiraKeys' | 'owners' | 'repoLines' | 'regex';

interface Field {
  type: FieldType;
  description: string;
  default?: string | number | boolean;
}
type Section = Record<string, Field | { section: Section; description: string }>;

export interface TrackerConfig {
  /** GitHub `owner/name` whose issues `#N` refers to and whose release page notes publish. */
  repo?: string;
  /** Jira project keys (`UP`): `UP-123` in a commit message is a Jira issue. */
  jiraProjects?: string[];
}
export interface MailConfig {
  from?: string;
  dev?: string[];
  user?: string[];
  announce?: string[];
  /** Working days the pre-release notice must precede a release by (default 2). */
  noticeWorkingDays?: number;
}
export interface SmokeConfig {
  /** The local checkout to smoke-test when distribution.repo is owner/name. */
  dir?: string;
  stop?: string[];
  deploy?: string[];
  start?: string[];
  healthUrl?: string;
  /** Seconds the health probe waits for a 2xx. */
  deadline?: number;
  /** `prep` runs `smoke --snapshot` when true. */
  snapshotInPrep?: boolean;
}
export interface ImageConfig {
  context?: string;
  dockerfile?: string;
  name?: string;
  registry?: string;
}
export interface DistributionConfig {
  repo?: string;
  property?: string;
  smoke?: SmokeConfig;
  image?: ImageConfig;
}
/** The fleet's selection and workspace (DESIGN §13): flags win over it. */
export interface FleetConfig {
  /** Repository lines, as a repos file holds them (`OWNER/NAME` or `OWNER/NAME URL`). */
  repos?: string[];
  /** Organisations or users whose repositories the host's API lists. */
  org?: string[];
  topic?: string;
  include?: string;
  exclude?: string;
  archived?: boolean;
  forks?: boolean;
  workdir?: string;
  jobs?: number;
}
export interface ConfigSections {
  tracker?: TrackerConfig;
  fleet?: FleetConfig;
  distribution?: DistributionConfig;
  mail?: MailConfig;
}

const addressesHelp = 'an e-mail address or a list of them';
const commandHelp = 'a command line (split on spaces, no shell) or an argv array';

export const sections: Record<keyof ConfigSections, { section: Section; description: string }> = {
  tracker: {
    description: 'issue tracker of the release notes (relctl notes)',
    section: {
      repo: { type: 'ownerName', description: 'GitHub owner/name (default: the origin remote)' },
      jiraProjects: { type: 'jiraKeys', description: 'Jira project keys, e.g. ["UP"]' },
    },
  },
  distribution: {
    description: 'the distribution that ships this component (relctl distribute, smoke, image)',
    section: {
      repo: { type: 'string', description: 'local clone path, or owner/name on the repository host (cloned into a temporary folder)' },
      property: { type: 'string', description: "gradle.properties key pinning this component (default: the artifactId in camelCase + 'Version')" },
      smoke: {
        description: 'relctl smoke: stop, clean deploy, start, then the health probe',
        section: {
          dir: { type: 'string', description: 'local checkout of the distribution to run (default: distribution.repo when it is a folder)' },
          stop: { type: 'command', description: `stop command (${commandHelp})`, default: './gradlew tomcatStop' },
          deploy: { type: 'command', description: `clean deploy command (${commandHelp})`, default: './gradlew clean tomcatDeploy' },
          start: { type: 'command', description: `start command (${commandHelp})`, default: './gradlew tomcatStart' },
          healthUrl: { type: 'url', description: 'URL that answers 2xx once the distribution is up', default: 'http://localhost:8080/uPortal/' },
          deadline: { type: 'positiveInteger', description: 'seconds the probe waits for a 2xx', default: 300 },
          snapshotInPrep: { type: 'boolean', description: 'the prep step runs relctl smoke --snapshot', default: false },
        },
      },
      image: {
        description: 'relctl image: the demo image',
        section: {
          context: { type: 'string', description: 'build context folder, relative to the distribution (default: its root)' },
          dockerfile: { type: 'string', description: 'Dockerfile path, relative to the context (default: Dockerfile)' },
          name: {
            type: 'string',
            description:
              'image name as docker users write it, without a tag: the first component is the registry when it has . or : or is localhost (127.0.0.1:5000/example/uportal-demo, ghcr.io/apereo/uportal-demo), else Docker Hub (apereo/uportal-demo; library/ for one component)',
          },
          registry: { type: 'string', description: 'registry host[:port] for a name without one (default: docker.io); must agree with the registry the name carries' },
        },
      },
    },
  },
  fleet: {
    description: 'relctl fleet: the repositories of the ecosystem and where they are cloned',
    section: {
      repos: { type: 'repoLines', description: 'repositories, one per entry: "OWNER/NAME" (cloned from the host) or "OWNER/NAME URL" (any git URL or local path)' },
      org: { type: 'owners', description: 'organisations (or users) whose repositories the host lists' },
      topic: { type: 'string', description: 'with org: only repositories with this topic' },
      include: { type: 'regex', description: 'with org: only repositories whose OWNER/NAME matches this regular expression' },
      exclude: { type: 'regex', description: 'with org: leave out repositories whose OWNER/NAME matches this regular expression' },
      archived: { type: 'boolean', description: 'with org: include archived repositories', default: false },
      forks: { type: 'boolean', description: 'with org: include forks', default: false },
      workdir: { type: 'string', description: 'the workspace of clones (default: $XDG_CACHE_HOME/relctl/fleet, else ~/.cache/relctl/fleet)' },
      jobs: { type: 'positiveInteger', description: 'repositories cloned and audited at once (default: the CPU count)' },
    },
  },
  mail: {
    description: 'relctl notify: sender and mailing lists',
    section: {
      from: { type: 'string', description: 'sender address' },
      dev: { type: 'addresses', description: `developer list (${addressesHelp})` },
      user: { type: 'addresses', description: `user list (${addressesHelp})` },
      announce: { type: 'addresses', description: `announcement list, the core project only (${addressesHelp})` },
      noticeWorkingDays: { type: 'positiveInteger', description: 'working days the pre-release notice must precede a release', default: 2 },
    },
  },
};

export const sectionKeys = Object.keys(sections) as (keyof ConfigSections)[];

const address = /^[^\s@<>]+@[^\s@<>]+$/;
const ownerName = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;
const jiraKey = /^[A-Z][A-Z0-9_]*$/;
const ownerOnly = /^[A-Za-z0-9_.-]+$/;
const repoLine = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+(\s+\S+)?$/;

function checkField(field: Field, value: unknown): { value?: unknown; problem?: string } {
  switch (field.type) {
    case 'boolean':
      return typeof value === 'boolean' ? { value } : { problem: 'must be true or false' };
    case 'positiveInteger':
      return typeof value === 'number' && Number.isInteger(value) && value >= 1 ? { value } : { problem: 'must be a whole number of 1 or more' };
    case 'addresses': {
      const list = typeof value === 'string' ? [value] : value;
      if (!Array.isArray(list) || list.length === 0 || list.some((a) => typeof a !== 'string')) return { problem: `must be ${addressesHelp}` };
      const bad = (list as string[]).find((a) => !address.test(a.trim()));
      return bad === undefined ? { value: (list as string[]).map((a) => a.trim()) } : { problem: `"${bad}" is not an e-mail address` };
    }
    case 'command': {
      const argv = typeof value === 'string' ? value.trim().split(/\s+/) : value;
      if (!Array.isArray(argv) || argv.length === 0 || argv.some((a) => typeof a !== 'string' || a === '')) return { problem: `must be ${commandHelp}` };
      return { value: argv };
    }
    case 'url':
      if (typeof value !== 'string' || !/^https?:\/\/\S+$/.test(value)) return { problem: 'must be an http or https URL' };
      return { value };
    case 'ownerName':
      return typeof value === 'string' && ownerName.test(value.trim()) ? { value: value.trim() } : { problem: 'must be "owner/name"' };
    case 'owners': {
      const list = typeof value === 'string' ? [value] : value;
      const ok = Array.isArray(list) && list.length > 0 && list.every((o) => typeof o === 'string' && ownerOnly.test(o.trim()));
      return ok ? { value: (list as string[]).map((o) => o.trim()) } : { problem: 'must be an owner name or a list of them, such as "apereo"' };
    }
    case 'repoLines': {
      const ok = Array.isArray(value) && value.length > 0 && value.every((l) => typeof l === 'string' && repoLine.test(l.trim()));
      return ok ? { value: (value as string[]).map((l) => l.trim()) } : { problem: 'must be a list of "OWNER/NAME" or "OWNER/NAME URL" entries' };
    }
    case 'regex':
      if (typeof value !== 'string' || value === '') return { problem: 'must be a regular expression' };
      try {
        new RegExp(value);
        return { value };
      } catch (error) {
        return { problem: `is not a valid regular expression: ${(error as Error).message}` };
      }
    case 'jiraKeys':
      return Array.isArray(value) && value.every((k) => typeof k === 'string' && jiraKey.test(k))
        ? { value: [...(value as string[])] }
        : { problem: 'must be a list of upper-case Jira project keys such as ["UP"]' };
    default:
      return typeof value === 'string' && value.trim() !== '' ? { value: value.trim() } : { problem: 'must be a non-empty string' };
  }
}

function checkSection(section: Section, json: unknown, prefix: string, problems: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    problems.push(`${prefix} must be a JSON object`);
    return out;
  }
  for (const [key, value] of Object.entries(json)) {
    const spec = section[key];
    const name = `${prefix}.${key}`;
    if (spec === undefined) {
      const secret = /password|token|secret/i.test(key) ? '; secrets do not belong in a committed file (RELCTL_* variables: see docs/configuration.md)' : '';
      problems.push(`${name} is not a known key (known: ${Object.keys(section).join(', ')})${secret}`);
    } else if ('section' in spec) {
      out[key] = checkSection(spec.section, value, name, problems);
    } else {
      const r = checkField(spec, value);
      if (r.problem !== undefined) problems.push(`${name} ${r.problem}`);
      else out[key] = r.value;
    }
  }
  return out;
}

export type SectionKey = keyof ConfigSections;

export function isSectionKey(key: string): key is SectionKey {
  return (sectionKeys as readonly string[]).includes(key);
}

/** Problems of one section's value (empty when valid; each names its key path) and its normalised form. */
export function validateSection<K extends SectionKey>(key: K, json: unknown): { problems: string[]; value?: ConfigSections[K] } {
  const problems: string[] = [];
  const value = checkSection(sections[key].section, json, key, problems);
  return problems.length > 0 ? { problems } : { problems, value: value as ConfigSections[K] };
}

/** A field's default, by path (`distribution.smoke.deadline`). */
export function sectionDefault(pathText: string): string | number | boolean | string[] | undefined {
  const [first, ...rest] = pathText.split('.');
  let spec: Section[string] | undefined = sections[first as keyof ConfigSections];
  for (const part of rest) {
    if (spec === undefined || !('section' in spec)) return undefined;
    spec = spec.section[part];
  }
  if (spec === undefined || 'section' in spec) return undefined;
  return spec.type === 'command' && typeof spec.default === 'string' ? spec.default.split(' ') : spec.default;
}

function fieldSchema(type: FieldType): Record<string, unknown> {
  const string = { type: 'string', minLength: 1 };
  switch (type) {
    case 'boolean':
      return { type: 'boolean' };
    case 'positiveInteger':
      return { type: 'integer', minimum: 1 };
    case 'url':
      return { type: 'string', format: 'uri', pattern: '^https?://' };
    case 'ownerName':
      return { type: 'string', pattern: ownerName.source };
    case 'jiraKeys':
      return { type: 'array', items: { type: 'string', pattern: jiraKey.source } };
    case 'owners':
      return { oneOf: [{ type: 'string', pattern: ownerOnly.source }, { type: 'array', minItems: 1, items: { type: 'string', pattern: ownerOnly.source } }] };
    case 'repoLines':
      return { type: 'array', minItems: 1, items: { type: 'string', pattern: repoLine.source } };
    case 'regex':
      return { type: 'string', minLength: 1, format: 'regex' };
    case 'addresses':
    case 'command':
      return { oneOf: [string, { type: 'array', items: string, minItems: 1 }] };
    default:
      return string;
  }
}

function schemaOf(section: Section, description: string): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(section)) {
    properties[key] =
      'section' in spec
        ? schemaOf(spec.section, spec.description)
        : { description: spec.description, ...(spec.default === undefined ? {} : { default: spec.default }), ...fieldSchema(spec.type) };
  }
  return { description, type: 'object', additionalProperties: false, properties };
}

/** The JSON Schema of each section, for schema/relctl.config.schema.json. */
export const configSectionSchemas = Object.fromEntries(sectionKeys.map((k) => [k, schemaOf(sections[k].section, sections[k].description)])) as Record<
  SectionKey,
  Record<string, unknown>
>;
