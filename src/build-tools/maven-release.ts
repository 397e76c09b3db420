import { rmSync } from 'node:fs';
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  configuredPrepGoals,
  displayCommand,
  mavenInstallInvocation,
  mavenPerformInvocation,
  mavenPrepInvocation,
  mavenReleaseInvocations,
  type Invocation,
  type MavenCommon,
  type PrepGoal,
  type ReleaseVersions,
} from '../core/release-commands.js';
import { parsePom, type RawPom } from '../core/pom/index.js';
import { privateMavenSettings } from '../core/maven-user-home.js';
import { makeOwnedTempDir } from '../io/owned-temp.js';
import { localRepoFor } from './maven/settings.js';
import { StepFailedError } from '../core/errors.js';
import { decodeMavenFailure } from '../core/build-failures/maven.js';
import { installedJdks, javaHomeFor, jdkMajor } from './java-home.js';
import { onInterrupt } from '../io/interrupt.js';
import { publishingRoute, type PublishingRoute } from '../core/publishing-route.js';
import { preparedRelease, type PreparedRelease } from '../core/release-properties.js';
import type { ProcessRunner } from '../io/process-runner.js';
import { descriptorText } from '../io/descriptor.js';
import { exists } from '../io/project.js';
import { relativeToRoot, repositoryPomPath, statOf } from './maven/load.js';
import { buildToolCommand } from './wrapper.js';

/**
 * Runs Maven for the release chain: the release plugin's goals and the pre-release prep. Every
 * Maven of a session (and every build the release plugin forks from it) runs with a private Maven
 * user home (`-Duser.home` in MAVEN_OPTS, core/maven-user-home.ts): a temp folder (mode 0700,
 * removed right after the build, on Ctrl-C, at exit, and by the next run after a SIGKILL) whose
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
  const dir = await makeOwnedTempDir('relctl-settings-');
  // Removed with the session, and on Ctrl-C and at exit (its settings name the token's variables).
  const removeNow = (): void => rmSync(dir, { recursive: true, force: true });
  process.once('exit', removeNow);
  const unregister = onInterrupt(() => rm(dir, { recursive: true, force: true }));
  const dispose = async (): Promise<void> => {
    await rm(dir, { recursive: true, force: true });
    process.off('exit', removeNow);
    unregister();
  };
  const file = path.join(dir, '.m2', 'settings.xml');
  // user.home: the private home above. java.io.tmpdir: maven-release-plugin hands its forked Maven
  // a copy of the effective settings, passwords resolved, in a File.createTempFile (mode 0644 in
  // the shared temp folder) for the fork's lifetime; this puts that copy in the private folder.
  // gpg.useagent: maven-gpg-plugin 1.x in batch mode otherwise stops at "Cannot obtain passphrase
  // in batch mode" (the passphrase is in gpg-agent, warmed up before the build); 3.x uses the agent
  // anyway. MAVEN_OPTS reaches every fork: the release plugin passes its environment on, and
  // relctl's values come after the user's, so they win.
  const env: Record<string, string> = {
    MAVEN_OPTS: [o.env.MAVEN_OPTS, `-Duser.home=${dir}`, `-Djava.io.tmpdir=${dir}`, '-Dgpg.useagent=true'].filter((x) => x !== undefined && x !== '').join(' '),
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
  // The command line names the settings and the local repository as before (the file is the
  // private copy); the forks, which get neither, find the same through user.home.
  const common: MavenCommon = {
    executable,
    ...(o.localRepo === undefined ? {} : { localRepo: o.localRepo }),
    ...(hasUserSettings || o.token !== undefined ? { settingsFile: file } : {}),
  };
  return { common, env, dispose };
}

/** The variable maven-gpg-plugin (3.2.0+) reads the signing key's passphrase from. */
export const gpgPassphraseEnv = 'MAVEN_GPG_PASSPHRASE';

/** The variables the generated settings file reads the token from. */
export const tokenEnv = { username: 'RELCTL_MAVEN_TOKEN_USERNAME', password: 'RELCTL_MAVEN_TOKEN_PASSWORD' } as const;

export async function runInvocation(proc: ProcessRunner, root: string, inv: Invocation, fix: string, env?: Record<string, string>): Promise<string> {
  const r = await proc.run({
    command: inv.command,
    args: inv.args,
    cwd: root,
    mutates: true,
    interactive: inv.interactive,
    purpose: `${inv.command} ${inv.purpose}`,
    ...(inv.input === undefined ? {} : { input: inv.input }),
    ...(env === undefined ? {} : { env }),
  });
  if (r.exitCode !== 0) throw await buildFailed(inv, r, fix, root, env?.JAVA_HOME);
  return r.output;
}

/**
 * A failed build tool run: the first [ERROR] lines (else the output's tail) and, for Maven, the
 * cause where the pattern is known (core/build-failures), whose fix comes before the step's own.
 */
async function buildFailed(inv: Invocation, r: { exitCode: number; output: string }, fix: string, root: string, javaHome: string | undefined): Promise<StepFailedError> {
  const major = javaHome === undefined ? undefined : await jdkMajor(javaHome);
  const decoded = /(^|\/)mvnw?$/.test(inv.command)
    ? decodeMavenFailure(r.output, { rehearsal: false, installedJdks: await installedJdks(), ...(major === undefined ? {} : { jdk: major }) })
    : undefined;
  const shown = decoded !== undefined && decoded.errors.length > 0 ? decoded.errors.map((e) => `[ERROR] ${e}`) : r.output.split('\n').filter((l) => l.trim() !== '').slice(-25);
  const cause = decoded?.cause;
  return new StepFailedError([`${inv.command} ${inv.purpose} failed (exit ${r.exitCode}).${cause === undefined ? '' : ` ${cause.message}`}`, ...shown].join('\n'), {
    kind: cause === undefined ? 'command-failed' : `build-failed:${cause.code}`,
    fix: cause === undefined ? fix : `${cause.fix} Then: ${fix}`,
    detail: `command: ${displayCommand(inv.command, inv.args)} (in ${root})`,
  });
}

const performFix =
  'Fix the cause shown above, then run `relctl release --resume`: release:prepare finished (release.properties records it), so only release:perform runs again, on the same tag.';

/** The release plugin run: one invocation, or three for a first release. Returns the captured output. */
export async function mavenRelease(
  proc: ProcessRunner,
  session: MavenSession,
  root: string,
  v: ReleaseVersions,
  options: { firstRelease: boolean; interactive: boolean; extraArgs?: readonly string[] },
): Promise<string> {
  let output = '';
  for (const inv of mavenReleaseInvocations(session.common, v, options)) {
    output += await runInvocation(
      proc,
      root,
      inv,
      inv.purpose.includes('perform') ? performFix : 'Fix the cause shown above, then run `relctl release --resume`.',
      session.env,
    );
  }
  return output;
}

/** What a finished release:prepare left in release.properties (the project root), if anything. */
export async function readPreparedRelease(root: string, groupId: string, artifactId: string): Promise<PreparedRelease | undefined> {
  const text = descriptorText(path.join(root, 'release.properties'));
  return text === undefined ? undefined : preparedRelease(text, groupId, artifactId);
}

/** release:perform alone: finishes a release whose prepare completed. Returns the captured output. */
export async function mavenPerform(
  proc: ProcessRunner,
  session: MavenSession,
  root: string,
  options: { interactive: boolean; extraArgs?: readonly string[] },
): Promise<string> {
  return runInvocation(proc, root, mavenPerformInvocation(session.common, options), performFix, session.env);
}

/** One POM of the reactor: its text (plugins are spotted in it) and its model when it parses. */
interface ReactorPom {
  text: string;
  pom?: RawPom;
}

/**
 * The reactor's POMs (root first, then the `<module>`s the model lists, nested), read once each.
 * Modules come from the parsed model, so a commented-out `<module>` is not walked, the same
 * reactor preflight reads (build-tools/maven/gather.ts); a module may name a folder or a POM file.
 */
async function reactorPoms(root: string): Promise<ReactorPom[]> {
  const poms: ReactorPom[] = [];
  const seen = new Set<string>();
  const walk = async (file: string): Promise<void> => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = descriptorText(file);
    if (text === undefined) return;
    const parsed = parsePom(text);
    poms.push(parsed.ok ? { text, pom: parsed.pom } : { text });
    if (!parsed.ok) return;
    for (const m of parsed.pom.modules) {
      const target = path.resolve(path.dirname(file), m.value);
      if (relativeToRoot(root, target) === undefined) continue;
      await walk(statOf(target)?.isDirectory() === true ? path.join(target, 'pom.xml') : target);
    }
  };
  await walk(path.join(root, 'pom.xml'));
  return poms;
}

/** The reactor's POM models (root first), those that parse. */
export async function reactorModels(root: string): Promise<RawPom[]> {
  return (await reactorPoms(root)).flatMap((p) => (p.pom === undefined ? [] : [p.pom]));
}

/** Every pom.xml of the reactor (root and nested <module>s), for spotting configured plugins. */
export async function reactorPomTexts(root: string): Promise<string[]> {
  return (await reactorPoms(root)).map((p) => p.text);
}

/** The parent POM from the local repository, where ecosystem parents configure these plugins. */
async function parentPomText(pom: RawPom | undefined, localRepo: string): Promise<string | undefined> {
  const file = pom?.parent === undefined ? undefined : repositoryPomPath(localRepo, pom.parent);
  return file === undefined ? undefined : descriptorText(file);
}

/** The reactor's POM texts and, when the local repository holds it, the parent POM's. */
async function reactorAndParentTexts(root: string, localRepo: string): Promise<string[]> {
  const poms = await reactorPoms(root);
  const texts = poms.map((p) => p.text);
  const parent = await parentPomText(poms[0]?.pom, localRepo);
  return parent === undefined ? texts : [...texts, parent];
}

export async function detectPrepGoals(root: string, localRepo: string): Promise<PrepGoal[]> {
  return configuredPrepGoals(await reactorAndParentTexts(root, localRepo));
}

export async function detectPublishingRoute(root: string, localRepo: string): Promise<PublishingRoute> {
  return publishingRoute(await reactorAndParentTexts(root, localRepo));
}

/**
 * nexus-staging-maven-plugin is the build's deployer (declared outside <pluginManagement> in the
 * reactor or its parent): it stages to its own configured nexusUrl, which no property redirects.
 */
export async function declaresNexusStaging(root: string, localRepo: string): Promise<boolean> {
  const active = (text: string): string => text.replace(/<!--[\s\S]*?-->/g, '').replace(/<pluginManagement>[\s\S]*?<\/pluginManagement>/g, '');
  return (await reactorAndParentTexts(root, localRepo)).some((t) => active(t).includes('<artifactId>nexus-staging-maven-plugin</artifactId>'));
}

export async function mavenPrep(proc: ProcessRunner, session: MavenSession, root: string, goals: readonly PrepGoal[]): Promise<void> {
  const inv = mavenPrepInvocation(session.common, goals);
  if (inv !== undefined) await runInvocation(proc, root, inv, 'Fix the cause shown above (or the plugin configuration), then run `relctl release --resume`.', session.env);
}

export async function mavenInstall(proc: ProcessRunner, session: MavenSession, root: string): Promise<void> {
  await runInvocation(proc, root, mavenInstallInvocation(session.common), 'Fix the build, commit, then run `relctl release --resume`.', session.env);
}

/** Maven's release checkout (release:perform builds and deploys from here). */
export function releaseCheckoutDir(root: string): string {
  return path.join(root, 'target', 'checkout');
}
