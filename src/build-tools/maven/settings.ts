import path from 'node:path';
import type { Finding } from '../../core/findings.js';
import { isEncrypted, parseMavenSettings, type MavenSettings } from '../../core/maven-settings.js';
import { readDescriptor } from '../../io/descriptor.js';
import type { MavenSettingsFacts } from './facts.js';

export interface LoadedSettings {
  facts: MavenSettingsFacts;
  settings?: MavenSettings;
  finding?: Finding;
}

/** Reads the Maven settings file. A missing file is normal (no servers); a broken one is a finding. */
export async function loadMavenSettings(file: string, context: { env: Record<string, string | undefined>; home: string }): Promise<LoadedSettings> {
  const facts: MavenSettingsFacts = { file, found: false, parsed: false, servers: [] };
  // Synchronous (io/descriptor.ts): one small file, read before anything can overlap with it.
  const read = readDescriptor(file);
  if (!read.ok && read.problem === 'missing') return { facts };
  facts.found = true;
  const broken = (message: string, line?: number): LoadedSettings => {
    const finding: Finding = {
      code: 'xml-malformed',
      severity: 'error',
      message: `The Maven settings file ${file} cannot be parsed: ${message}.`,
      file,
      fix: 'Correct the settings file (or point --settings at a valid one) so Maven and relctl can read your <server> credentials.',
    };
    if (line !== undefined) finding.line = line;
    return { facts, finding };
  };
  if (!read.ok) return broken(read.problem === 'unreadable' ? read.reason : `it ${read.reason}`);
  const parsed = parseMavenSettings(read.text, context);
  if (!parsed.ok) return broken(parsed.message, parsed.line);
  facts.parsed = true;
  facts.servers = parsed.settings.servers;
  facts.secrets = parsed.settings.secrets;
  if (facts.servers.some((x) => isEncrypted(x.password))) {
    // Maven 3 decrypts `{...}` with the master password in settings-security.xml (or -Dsettings.security).
    const named = /-Dsettings\.security=(\S+)/.exec(context.env.MAVEN_OPTS ?? '')?.[1];
    const security = named ?? path.join(context.home, '.m2', 'settings-security.xml');
    facts.masterPassword = { file: security, found: readDescriptor(security).ok };
  }
  return { facts, settings: parsed.settings };
}

export function defaultSettingsFile(home: string): string {
  return path.join(home, '.m2', 'settings.xml');
}

/** The value of `-s FILE` / `--settings FILE` / `--settings=FILE` in a Maven argument list. */
export function settingsArgument(args: readonly string[]): string | undefined {
  let found: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if ((a === '-s' || a === '--settings') && args[i + 1] !== undefined) found = args[++i];
    else if (a.startsWith('--settings=')) found = a.slice('--settings='.length);
    else if (/^-s[^-]/.test(a)) found = a.slice(2);
  }
  return found === undefined || found === '' ? undefined : found;
}

/** Splits `.mvn/maven.config` or MAVEN_ARGS into arguments (whitespace, simple quotes). */
export function splitMavenArgs(text: string): string[] {
  return [...text.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!);
}

/**
 * The settings file Maven itself uses for this project: relctl's `--settings`, else `-s` in
 * MAVEN_ARGS (Maven 3.9+ adds it to every command line), else `-s` in the project's
 * `.mvn/maven.config` (relative to the project root, where mvn runs), else ~/.m2/settings.xml.
 */
export function settingsFileFor(o: { settingsFile?: string; root: string; env: Record<string, string | undefined>; home: string; mavenConfig?: string }): { file: string; via?: string } {
  if (o.settingsFile !== undefined) return { file: path.resolve(o.settingsFile) };
  const fromArgs = settingsArgument(splitMavenArgs(o.env.MAVEN_ARGS ?? ''));
  if (fromArgs !== undefined) return { file: path.resolve(o.root, expandTilde(fromArgs, o.home)), via: 'MAVEN_ARGS' };
  const fromConfig = o.mavenConfig === undefined ? undefined : settingsArgument(splitMavenArgs(o.mavenConfig));
  if (fromConfig !== undefined) return { file: path.resolve(o.root, expandTilde(fromConfig.replace(/\$\{(maven\.multiModuleProjectDirectory|session\.rootDirectory)\}/g, o.root), o.home)), via: '.mvn/maven.config' };
  return { file: defaultSettingsFile(o.home) };
}

function expandTilde(p: string, home: string): string {
  return p === '~' || p.startsWith('~/') ? path.join(home, p.slice(1)) : p;
}

/**
 * Maven's local repository: `--local-repo` (RELCTL_MAVEN_LOCAL_REPO), else the settings'
 * `<localRepository>`, else ~/.m2/repository (docs/maven-preflight.md).
 */
export function resolveLocalRepo(o: { localRepo?: string; settings?: MavenSettings; home: string }): string {
  return path.resolve(o.localRepo ?? o.settings?.localRepository ?? path.join(o.home, '.m2', 'repository'));
}

/** The local repository for a run that has not read the settings yet (the release chain): reads them. */
export async function localRepoFor(o: { localRepo?: string; settingsFile?: string; env: Record<string, string | undefined>; home: string }): Promise<string> {
  if (o.localRepo !== undefined) return resolveLocalRepo({ localRepo: o.localRepo, home: o.home });
  const file = o.settingsFile === undefined ? defaultSettingsFile(o.home) : path.resolve(o.settingsFile);
  const { settings } = await loadMavenSettings(file, { env: o.env, home: o.home });
  return resolveLocalRepo({ ...(settings === undefined ? {} : { settings }), home: o.home });
}
