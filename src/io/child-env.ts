/**
 * The one place that builds a child process's environment (DESIGN §2): relctl's own secret
 * variables are removed, so a smoke command, `git push`, buildah or Maven never inherits a token it
 * has no use for. A child that needs one secret by contract gets it back explicitly from its caller
 * (Maven the portal token through its private `${env.…}` names, a registry login its password on
 * stdin), never by inheritance.
 */

/** relctl's secret variables, by exact name. */
const secretNames = new Set([
  'RELCTL_TOKEN_USERNAME',
  'RELCTL_TOKEN_PASSWORD',
  'RELCTL_GITHUB_TOKEN',
  'RELCTL_SMTP_URL',
  'RELCTL_REGISTRY_USERNAME',
  'RELCTL_REGISTRY_PASSWORD',
  'RELCTL_JIRA_TOKEN',
  'RELCTL_JIRA_USER',
  'RELCTL_GPG_PRIVATE_KEY',
  'RELCTL_GPG_PASSPHRASE',
]);

/** Prefixes of relctl's secret variable families (`RELCTL_TOKEN_*`, `RELCTL_REGISTRY_*`). */
const secretPrefixes = ['RELCTL_TOKEN_', 'RELCTL_REGISTRY_', 'RELCTL_MAVEN_TOKEN_'];

/**
 * Variables that are secrets only because relctl read one of them as a secret in this process
 * (GITHUB_TOKEN when no RELCTL_GITHUB_TOKEN was set; GPG_PRIVATE_KEY / GPG_PASSPHRASE in CI). A
 * variable relctl never read is the user's business and passes through (a build may publish to
 * GitHub Packages with its own GITHUB_TOKEN).
 */
const readAsSecret = new Set<string>();

/** Records that relctl took a secret from this variable: children no longer inherit it. */
export function markSecretRead(name: string): void {
  readAsSecret.add(name);
}

export function isSecretVariable(name: string): boolean {
  return secretNames.has(name) || readAsSecret.has(name) || secretPrefixes.some((p) => name.startsWith(p));
}

/** A copy of `env` without relctl's secret variables, plus `give` (what this child needs by contract). */
export function childEnv(env: NodeJS.ProcessEnv, give: Record<string, string> = {}): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && !isSecretVariable(name)) out[name] = value;
  }
  return { ...out, ...give };
}

/**
 * The secret values the environment holds (and their useful parts: the password inside
 * RELCTL_SMTP_URL), for the redactor: output captured from children is masked even when a child
 * found a secret some other way.
 */
export function secretValues(env: NodeJS.ProcessEnv): string[] {
  const values: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || value === '' || !(isSecretVariable(name) || name === 'GITHUB_TOKEN' || name === 'GPG_PASSPHRASE' || name === 'GPG_PRIVATE_KEY')) continue;
    // Usernames are not secrets on their own, but a token username is half of a credential.
    if (name === 'RELCTL_REGISTRY_USERNAME' || name === 'RELCTL_JIRA_USER') continue;
    values.push(value);
    if (name === 'RELCTL_SMTP_URL') values.push(...urlPassword(value));
  }
  return values;
}

function urlPassword(value: string): string[] {
  // Parsed leniently: a malformed URL is reported by its user later; the raw part is still masked.
  const m = /^[a-z][a-z0-9+.-]*:\/\/[^:/@]*:([^@/]*)@/i.exec(value);
  if (m === null || m[1] === '') return [];
  const raw = m[1]!;
  let decoded = raw;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    // A bad %-escape: only the raw form exists.
  }
  return decoded === raw ? [raw] : [raw, decoded];
}
