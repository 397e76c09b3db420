import path from 'node:path';
import type { Finding } from '../../core/findings.js';
import { parseMavenSettings, type MavenSettings } from '../../core/maven-settings.js';
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
  return { facts, settings: parsed.settings };
}

export function defaultSettingsFile(home: string): string {
  return path.join(home, '.m2', 'settings.xml');
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
