import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { UsageError } from '../core/errors.js';
import { parseProperties } from '../core/gradle/properties.js';
import { parseMavenSettings } from '../core/maven-settings.js';
import { gradleTokenProperties } from '../core/release-commands.js';
import { parsePom } from '../core/pom/index.js';
import type { Redactor } from '../core/redact.js';

/**
 * Token resolution (DESIGN §2): RELCTL_TOKEN_USERNAME/PASSWORD, else the Maven settings
 * <server> whose id equals the distribution repository id, else the Gradle user properties.
 * Every value found is registered with the redactor before anything else sees it.
 */
export interface PortalToken {
  username: string;
  password: string;
  /** Where it came from, for messages (never the value). */
  source: string;
}

export interface TokenSources {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** --settings / RELCTL_MAVEN_SETTINGS. */
  settingsFile?: string;
  redactor: Redactor;
}

export function bearerHeader(token: PortalToken): string {
  return `Bearer ${Buffer.from(`${token.username}:${token.password}`).toString('base64')}`;
}

/** The release repository id of the root POM's distributionManagement (undefined when absent or unreadable). */
export function distributionRepositoryId(pomXml: string): string | undefined {
  const parsed = parsePom(pomXml);
  if (!parsed.ok) return undefined;
  // nexus-staging-maven-plugin authenticates with its own <serverId> (a literal one; a property is left to the build).
  const nexus = parsed.pom.plugins.find((p) => p.artifactId === 'nexus-staging-maven-plugin' && p.config.some((c) => c.path === 'serverId'));
  const serverId = nexus?.config.find((c) => c.path === 'serverId')?.value;
  if (serverId !== undefined && serverId !== '' && !serverId.includes('${')) return serverId;
  return parsed.pom.distribution?.repository?.id?.value;
}

/**
 * The servers of a settings.xml: id → username/password, parsed by the shared Maven settings
 * model (${env.X} resolved; a reference to an unset variable leaves that half missing).
 */
export function settingsServers(settingsXml: string, env: NodeJS.ProcessEnv): Map<string, { username?: string; password?: string }> {
  const out = new Map<string, { username?: string; password?: string }>();
  const parsed = parseMavenSettings(settingsXml, { env, home: home(env) });
  if (!parsed.ok) return out;
  for (const s of parsed.settings.servers) {
    if (s.id === '' || out.has(s.id)) continue;
    out.set(s.id, {
      ...(s.username === undefined ? {} : { username: s.username }),
      ...(s.password === undefined ? {} : { password: s.password }),
    });
  }
  return out;
}

async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
}

function home(env: NodeJS.ProcessEnv): string {
  return env.HOME ?? os.homedir();
}

/** Finds the token, or undefined when none is configured anywhere. */
export async function findToken(src: TokenSources): Promise<PortalToken | undefined> {
  const { env } = src;
  const u = env.RELCTL_TOKEN_USERNAME;
  const p = env.RELCTL_TOKEN_PASSWORD;
  if (u !== undefined && u !== '' && p !== undefined && p !== '') {
    src.redactor.addToken(u, p);
    return { username: u, password: p, source: 'RELCTL_TOKEN_USERNAME / RELCTL_TOKEN_PASSWORD' };
  }
  if ((u ?? '') !== '' || (p ?? '') !== '') {
    src.redactor.add(u, p);
    throw new UsageError('Only one of RELCTL_TOKEN_USERNAME and RELCTL_TOKEN_PASSWORD is set.', {
      kind: 'missing-credentials',
      fix: 'Set both halves of the portal user token, or neither (then the Maven settings or Gradle properties are used).',
    });
  }
  const settingsFile = src.settingsFile ?? path.join(home(env), '.m2', 'settings.xml');
  const settings = await readIfExists(settingsFile);
  const pom = await readIfExists(path.join(src.cwd, 'pom.xml'));
  if (settings !== undefined) {
    const servers = settingsServers(settings, env);
    const repoId = pom === undefined ? undefined : distributionRepositoryId(pom);
    // Without a declared id (inherited from a parent), the ids the portal migration uses.
    const ids = repoId !== undefined ? [repoId] : ['central', 'ossrh', 'sonatype-nexus-staging'];
    for (const id of ids) {
      const s = servers.get(id);
      if (s?.username !== undefined && s.password !== undefined && !s.username.includes('${') && !s.password.includes('${')) {
        src.redactor.addToken(s.username, s.password);
        return { username: s.username, password: s.password, source: `${settingsFile} <server> ${id}` };
      }
    }
  }
  const gradleHome = env.GRADLE_USER_HOME ?? path.join(home(env), '.gradle');
  const propsFile = path.join(gradleHome, 'gradle.properties');
  const props = await readIfExists(propsFile);
  if (props !== undefined) {
    const map = parseProperties(props);
    for (const [uk, pk] of gradleTokenProperties) {
      const gu = map.get(uk)?.value.trim();
      const gp = map.get(pk)?.value.trim();
      if (gu !== undefined && gp !== undefined && gu !== '' && gp !== '') {
        src.redactor.addToken(gu, gp);
        return { username: gu, password: gp, source: `${propsFile} ${uk}/${pk}` };
      }
    }
  }
  return undefined;
}

export const missingTokenFix =
  'Set RELCTL_TOKEN_USERNAME and RELCTL_TOKEN_PASSWORD to a portal user token, or add a <server> with that token to ~/.m2/settings.xml whose id equals the distribution repository id (Gradle: mavenCentralUsername/mavenCentralPassword in ~/.gradle/gradle.properties).';

export async function requireToken(src: TokenSources): Promise<PortalToken> {
  const token = await findToken(src);
  if (token === undefined) {
    throw new UsageError('No portal token is configured.', { kind: 'missing-credentials', fix: missingTokenFix });
  }
  return token;
}
