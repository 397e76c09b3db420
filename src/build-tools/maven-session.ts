import { mkdir, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { MavenCommon } from '../core/release-commands.js';
import { privateMavenSettings } from '../core/maven-user-home.js';
import { createCredentialDir } from '../io/credential-dir.js';
import { descriptorText } from '../io/descriptor.js';
import { exists } from '../io/project.js';
import { shellSafeTempBase } from '../io/temp-base.js';
import { localRepoFor } from './maven/settings.js';
import { javaHomeFor } from './java-home.js';
import { buildToolCommand } from './wrapper.js';

/**
 * Runs Maven for the release chain: the release plugin's goals and the pre-release prep. Every
 * Maven of a session (and every build the release plugin forks from it) runs with a private Maven
 * user home (`-Duser.home` in MAVEN_OPTS, core/maven-user-home.ts): a temp folder (mode 0700,
 * removed right after the build, on Ctrl-C, at exit, and by the next run after a SIGKILL; outside
 * a TMPDIR whose path mvn would split, io/temp-base.ts) whose
 * `.m2/settings.xml` is the user's own settings plus the local repository relctl uses and, when
 * relctl holds the token, the <server> reading it from the child's environment (`${env.…}`).
 */
export interface MavenRunOptions {
  root: string;
  env: NodeJS.ProcessEnv;
  /** --settings / RELCTL_MAVEN_SETTINGS, else ~/.m2/settings.xml when it exists. */
  userSettings?: string;
  localRepo?: string;
  /** Set when the token did not come from the settings file: a private copy names it through env. */
  token?: { username: string; password: string; serverId: string };
  /** Receives the line saying why a present ./mvnw is not used. */
  note?: (line: string) => void;
  /** The signing key's passphrase (a key imported from the environment): maven-gpg-plugin 3.2+ reads it from MAVEN_GPG_PASSPHRASE. */
  gpgPassphrase?: string;
  /**
   * Checksum files the build writes: `required` (the default) asks central-publishing-maven-plugin
   * (its `checksums` user property, default ALL) for .md5/.sha1 only, as vanniktech and nmcp now do
   * by default: .sha256/.sha512 are optional for the portal and count against the publishing
   * limits. A `<checksums>` in the POM's plugin configuration still wins.
   */
  checksums?: 'required' | 'all';
}

/** `./mvnw` when the wrapper can run, else `mvn`; `note` receives the one line saying why not. */
export async function mavenExecutable(root: string, note?: (line: string) => void): Promise<string> {
  const c = await buildToolCommand(root, 'maven');
  if (c.why !== undefined) note?.(c.why);
  return c.executable;
}

export interface MavenSession {
  common: MavenCommon;
  /**
   * Added to every Maven child's environment: the token halves the generated settings file names
   * as `${env.…}`, so the token is never written to a file nor passed in argv (DESIGN §2),
   * MAVEN_OPTS pointing java.io.tmpdir at the session's private folder (and gpg.useagent),
   * JAVA_HOME when it was unset, and MAVEN_GPG_PASSPHRASE for a key imported from the environment.
   */
  env?: Record<string, string>;
  /** Deletes the session's private folder (the generated settings file, the plugin's temp files). */
  dispose(): Promise<void>;
}

export async function openMavenSession(o: MavenRunOptions, dryRun: boolean): Promise<MavenSession> {
  const executable = await mavenExecutable(o.root, o.note);
  const home = o.env.HOME ?? os.homedir();
  const userSettings = o.userSettings ?? path.join(home, '.m2', 'settings.xml');
  const hasUserSettings = await exists(userSettings);
  const localRepo = o.localRepo ?? (await localRepoFor({ ...(hasUserSettings ? { settingsFile: userSettings } : {}), env: o.env, home }));
  // The private Maven user home (core/maven-user-home.ts): every Maven of the release, the release
  // plugin's forks included, reads its settings and local repository from here.
  // Removed with the session, and on Ctrl-C and at exit (its settings name the token's variables).
  // Its path goes into MAVEN_OPTS, which mvn splits at spaces: a TMPDIR with one is not used (temp-base.ts).
  const base = await shellSafeTempBase();
  if (base.why !== undefined) o.note?.(base.why);
  const credentials = await createCredentialDir('relctl-settings-', undefined, base.path);
  const dir = credentials.path;
  const dispose = credentials.remove;
  const file = path.join(dir, '.m2', 'settings.xml');
  // user.home: the private home above. java.io.tmpdir: maven-release-plugin hands its forked Maven
  // a copy of the effective settings, passwords resolved, in a File.createTempFile (mode 0644 in
  // the shared temp folder) for the fork's lifetime; this puts that copy in the private folder.
  // gpg.useagent: maven-gpg-plugin 1.x in batch mode otherwise stops at "Cannot obtain passphrase
  // in batch mode" (the passphrase is in gpg-agent, warmed up before the build); 3.x uses the agent
  // anyway. MAVEN_OPTS reaches every fork: the release plugin passes its environment on, and
  // relctl's values come after the user's, so they win.
  const env: Record<string, string> = {
    MAVEN_OPTS: [o.checksums === 'all' ? undefined : '-Dchecksums=required', o.env.MAVEN_OPTS, `-Duser.home=${dir}`, `-Djava.io.tmpdir=${dir}`, '-Dgpg.useagent=true'].filter((x) => x !== undefined && x !== '').join(' '),
    // By contract the one child that gets the passphrase: maven-gpg-plugin 3.2+ hands it to gpg on
    // stdin (loopback pinentry). Older plugins sign through the agent, unlocked before the build.
    ...(o.gpgPassphrase === undefined ? {} : { [gpgPassphraseEnv]: o.gpgPassphrase }),
    ...(o.token === undefined ? {} : { [tokenEnv.username]: o.token.username, [tokenEnv.password]: o.token.password }),
  };
  // JAVA_HOME unset: the JDK of `java` on PATH, said once (javadoc tooling on JDK 9+ needs it).
  const javaHome = await javaHomeFor(o.env);
  if (javaHome?.why !== undefined) {
    env.JAVA_HOME = javaHome.path;
    o.note?.(javaHome.why);
  }
  if (!dryRun) {
    await mkdir(path.dirname(file), { mode: 0o700 });
    const text = privateMavenSettings({
      ...(hasUserSettings ? { userSettings: descriptorText(userSettings) ?? '' } : {}),
      home,
      localRepo,
      ...(o.token === undefined ? {} : { server: { id: o.token.serverId, username: `\${env.${tokenEnv.username}}`, password: `\${env.${tokenEnv.password}}` } }),
    });
    await writeFile(file, text, { mode: 0o600 });
    // The user's other files of ~/.m2 that Maven reads from user.home: linked, never copied.
    for (const name of ['settings-security.xml', 'toolchains.xml']) {
      const own = path.join(home, '.m2', name);
      if (await exists(own)) await symlink(own, path.join(dir, '.m2', name));
    }
  }
  // The command line names the settings and the local repository as before; the forks, which get
  // neither, find the same settings (plus the local repository) through user.home.
  const common: MavenCommon = {
    executable,
    ...(o.localRepo === undefined ? {} : { localRepo: o.localRepo }),
    // The token from the user's settings: their own file, as they would type it; relctl's token: the private copy.
    ...(o.token !== undefined ? { settingsFile: file } : hasUserSettings ? { settingsFile: userSettings } : {}),
  };
  return { common, env, dispose };
}

/** The variable maven-gpg-plugin (3.2.0+) reads the signing key's passphrase from. */
export const gpgPassphraseEnv = 'MAVEN_GPG_PASSPHRASE';

/** Where the <server> relctl adds lives, for a refused deploy's message. */
export const privateSettingsPlace =
  "relctl's private Maven settings (the .m2/settings.xml of the temporary Maven user home that every Maven of the run, forks included, gets through MAVEN_OPTS -Duser.home), reading the token from the environment";

/** The variables the generated settings file reads the token from. */
export const tokenEnv = { username: 'RELCTL_MAVEN_TOKEN_USERNAME', password: 'RELCTL_MAVEN_TOKEN_PASSWORD' } as const;
