import { settingsWithServer } from './release-commands.js';
import { escapeXml } from './fix/xml-text.js';

/**
 * The settings.xml of relctl's private Maven user home (issue 27 item 1). Every Maven the release
 * starts, the forks of maven-release-plugin included, gets `-Duser.home=<private home>` through
 * MAVEN_OPTS; Maven reads its user settings from `${user.home}/.m2/settings.xml`, so a fork that
 * is given neither `-s` nor `-Dmaven.repo.local` (release plugin 2.0–2.5's `mvn deploy … -f
 * pom.xml`) still reads this file. It holds the user's own settings (mirrors, proxies, servers,
 * profiles), `<localRepository>` set to the repository relctl uses, and, when relctl supplies the
 * token, the release repository's `<server>` reading it from `${env.…}` (never the values).
 * `${user.home}` in the user's text meant the real home: it is written out, since the property
 * now names the private one. Pure: the caller writes it (mode 0600) and removes it.
 */
export interface PrivateSettingsInput {
  /** The user's settings text (--settings, else ~/.m2/settings.xml), when there is one. */
  userSettings?: string;
  /** The user's real home, for `${user.home}` in their text. */
  home: string;
  /** The local repository every Maven of the release uses. */
  localRepo: string;
  /** The `<server>` relctl adds: its id and the `${env.…}` expressions of the token's halves. */
  server?: { id: string; username: string; password: string };
}

export function privateMavenSettings(o: PrivateSettingsInput): string {
  const own = o.userSettings !== undefined && /<\/settings\s*>/.test(o.userSettings) ? o.userSettings.replaceAll('${user.home}', o.home) : undefined;
  const text = o.server === undefined ? (own ?? '<?xml version="1.0" encoding="UTF-8"?>\n<settings>\n</settings>\n') : settingsWithServer(own, o.server.id, o.server.username, o.server.password);
  return withLocalRepository(text, o.localRepo);
}

/** `<localRepository>` set to `dir` (the user's own replaced; one in a comment is left alone). */
export function withLocalRepository(settings: string, dir: string): string {
  const element = `<localRepository>${escapeXml(dir)}</localRepository>`;
  // Comments blanked out (same length) to find the live element's position in the real text.
  const live = settings.replace(/<!--[\s\S]*?-->/g, (c) => ' '.repeat(c.length));
  const own = /<localRepository\s*>[\s\S]*?<\/localRepository\s*>|<localRepository\s*\/>/.exec(live);
  if (own !== null) return settings.slice(0, own.index) + element + settings.slice(own.index + own[0].length);
  const open = /<settings(\s[^>]*)?>/.exec(live);
  if (open === null) return settings;
  const at = open.index + open[0].length;
  return `${settings.slice(0, at)}\n  ${element}${settings.slice(at)}`;
}
