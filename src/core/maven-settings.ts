/**
 * Pure model of a Maven settings.xml: the servers (credentials by repository id) and the local
 * repository, and the properties of the profiles it switches on (a company's release repository
 * URL often lives there). Mirrors and proxies do not matter to preflight and are ignored.
 * `${env.NAME}` values resolve against the supplied environment, as Maven does.
 */
import { interpolate } from './pom/interpolate.js';
import { child, children, parseXml, type XmlElement } from './pom/xml.js';
import { secretElements } from './xml-secrets.js';

export interface MavenServer {
  id: string;
  line: number;
  username?: string;
  password?: string;
  /** `${env.NAME}` references in username or password whose variable is not set. */
  unsetEnv: string[];
}

export interface MavenSettings {
  servers: MavenServer[];
  localRepository?: string;
  /** Properties of the profiles active in every build (`<activeProfiles>`, `activeByDefault`). */
  properties?: Map<string, string>;
  /**
   * Every literal secret in the file, found by parsing it (a server's password with or without a
   * username, a `<passphrase>`, a profile's `<gpg.passphrase>`), `${env.*}` resolved: for the redactor.
   */
  secrets: string[];
}

export type SettingsParseResult = { ok: true; settings: MavenSettings } | { ok: false; message: string; line?: number };

export interface SettingsContext {
  env: Readonly<Record<string, string | undefined>>;
  /** For `${user.home}` in localRepository. */
  home: string;
}

export function parseMavenSettings(text: string, context: SettingsContext): SettingsParseResult {
  const xml = parseXml(text);
  if (!xml.ok) return xml;
  if (xml.root.name !== 'settings') {
    return { ok: false, message: `the root element is <${xml.root.name}>, not <settings>`, line: xml.root.line };
  }
  const lookup = (name: string): string | undefined => {
    if (name.startsWith('env.')) return context.env[name.slice(4)];
    if (name === 'user.home') return context.home;
    return undefined;
  };
  const settings: MavenSettings = { servers: [], secrets: literalSecrets(xml.root, lookup) };
  for (const s of children(child(xml.root, 'servers'), 'server')) {
    const id = child(s, 'id')?.text ?? '';
    const server: MavenServer = { id, line: s.line, unsetEnv: [] };
    for (const key of ['username', 'password'] as const) {
      const raw = child(s, key)?.text;
      if (raw === undefined || raw === '') continue;
      const value = interpolate(raw, lookup);
      for (const m of value.matchAll(/\$\{env\.([^${}]+)\}/g)) server.unsetEnv.push(m[1]!);
      // A variable set to nothing (a CI secret that is not defined for this job) is as good as unset.
      const empty = [...raw.matchAll(/\$\{env\.([^${}]+)\}/g)].map((m) => m[1]!).filter((n) => context.env[n] === '');
      if (value.trim() === '' && empty.length > 0) {
        server.unsetEnv.push(...empty);
        continue;
      }
      // An unset variable leaves `${env.X}` in place; Maven would send that literally, so the
      // credential is as good as missing.
      if (/\$\{env\.[^${}]+\}/.test(value)) continue;
      server[key] = value;
    }
    settings.servers.push(server);
  }
  const properties = activeProfileProperties(xml.root, lookup);
  if (properties.size > 0) settings.properties = properties;
  const local = child(xml.root, 'localRepository')?.text;
  if (local !== undefined && local !== '') settings.localRepository = interpolate(local, lookup);
  return { ok: true, settings };
}

function literalSecrets(root: XmlElement, lookup: (name: string) => string | undefined): string[] {
  return secretElements(root)
    .map((el) => interpolate(el.text, lookup))
    // An unset variable leaves no secret; `true` from a switch named like one (`<skipTokenCheck>`)
    // would mask the word everywhere.
    .filter((v) => !/\$\{[^}]+\}/.test(v) && v !== 'true' && v !== 'false');
}

/** Maven injects these into every project's model: they override the POM's own properties. */
function activeProfileProperties(root: XmlElement, lookup: (name: string) => string | undefined): Map<string, string> {
  const active = new Set(children(child(root, 'activeProfiles'), 'activeProfile').map((p) => p.text.trim()));
  const props = new Map<string, string>();
  for (const profile of children(child(root, 'profiles'), 'profile')) {
    const byDefault = child(child(profile, 'activation'), 'activeByDefault')?.text.trim() === 'true';
    if (!active.has(child(profile, 'id')?.text.trim() ?? '') && !byDefault) continue;
    for (const p of child(profile, 'properties')?.children ?? []) props.set(p.name, interpolate(p.text.trim(), lookup));
  }
  return props;
}

/** A server with both credentials set, for the given repository id. */
export function serverWithCredentials(settings: MavenSettings, id: string): MavenServer | undefined {
  return settings.servers.find((s) => s.id === id && s.username !== undefined && s.password !== undefined);
}

/** A Maven 3 encrypted value: `{base64}` (Maven 4's `{[name=...]...}` has its own sources). */
export function isEncrypted(value: string | undefined): boolean {
  return value !== undefined && /^\{[^[{}\s][^{}\s]*\}$/.test(value.trim());
}

/**
 * Settings files a CI script hands to Maven: `mvn ... -s FILE` / `--settings FILE` /
 * `--settings=FILE` on a line that runs mvn or the wrapper, with the CI's workspace prefixes
 * removed. Values with shell or CI expressions left in them are skipped.
 */
export function mvnSettingsArguments(text: string): string[] {
  const out: string[] = [];
  const workspace = /(?:\$\{\{\s*github\.workspace\s*\}\}|\$GITHUB_WORKSPACE|\$\{GITHUB_WORKSPACE\}|\$CI_PROJECT_DIR|\$\{CI_PROJECT_DIR\}|\$WORKSPACE|\$\{WORKSPACE\}|\$PWD|\$\(pwd\))\//g;
  for (const raw of text.split(/\r?\n/)) {
    if (/^\s*#/.test(raw)) continue;
    const line = raw.replace(workspace, '');
    const run = /(?:^|[\s;&|'"(])(?:\.\/)?(?:mvn|mvnw|mvnw\.cmd)(?:\s|$)/.exec(line);
    if (run === null) continue;
    const rest = line.slice(run.index + run[0].length);
    for (const m of rest.matchAll(/(?:^|\s)(?:-s|--settings)(?:\s+|=)("[^"]+"|'[^']+'|[^\s;&|]+)/g)) {
      const value = m[1]!.replace(/^["']|["']$/g, '');
      if (!/[$`{}]/.test(value) && !out.includes(value)) out.push(value);
    }
  }
  return out;
}
