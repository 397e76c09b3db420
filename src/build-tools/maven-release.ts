import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  configuredPrepGoals,
  mavenInstallInvocation,
  mavenPrepInvocation,
  mavenReleaseInvocations,
  settingsWithServer,
  type Invocation,
  type MavenCommon,
  type PrepGoal,
  type ReleaseVersions,
} from '../core/release-commands.js';
import type { ProcessRunner } from '../release/process-runner.js';
import { exists } from '../release/project.js';

/**
 * Runs Maven for the release chain: the release plugin's goals and the pre-release prep. Secrets
 * reach Maven only through a settings file: the user's own (when the token came from it) or a
 * generated private copy (mode 0600, in a temp folder, deleted right after the build) whose
 * <server> reads the token from the child's environment (`${env.…}`), never holding it itself.
 */
export interface MavenRunOptions {
  root: string;
  env: NodeJS.ProcessEnv;
  /** --settings / RELCTL_MAVEN_SETTINGS, else ~/.m2/settings.xml when it exists. */
  userSettings?: string;
  localRepo?: string;
  /** Set when the token did not come from the settings file: a private copy names it through env. */
  token?: { username: string; password: string; serverId: string };
}

export async function mavenExecutable(root: string): Promise<string> {
  return (await exists(path.join(root, 'mvnw'))) ? './mvnw' : 'mvn';
}

export interface MavenSession {
  common: MavenCommon;
  /**
   * Added to every Maven child's environment: the token halves the generated settings file names
   * as `${env.…}`, so the token is never written to a file nor passed in argv (DESIGN §2).
   */
  env?: Record<string, string>;
  /** Deletes the generated settings file, if any. */
  dispose(): Promise<void>;
}

export async function openMavenSession(o: MavenRunOptions, dryRun: boolean): Promise<MavenSession> {
  const executable = await mavenExecutable(o.root);
  const base: MavenCommon = { executable, ...(o.localRepo === undefined ? {} : { localRepo: o.localRepo }) };
  const userSettings = o.userSettings ?? path.join(o.env.HOME ?? os.homedir(), '.m2', 'settings.xml');
  const hasUserSettings = await exists(userSettings);
  if (o.token === undefined) {
    return { common: hasUserSettings ? { ...base, settingsFile: userSettings } : base, dispose: async () => undefined };
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), 'relctl-settings-'));
  const file = path.join(dir, 'settings.xml');
  if (!dryRun) {
    const text = settingsWithServer(hasUserSettings ? await readFile(userSettings, 'utf8') : undefined, o.token.serverId, `\${env.${tokenEnv.username}}`, `\${env.${tokenEnv.password}}`);
    await chmod(dir, 0o700);
    await writeFile(file, text, { mode: 0o600 });
  }
  return {
    common: { ...base, settingsFile: file },
    env: { [tokenEnv.username]: o.token.username, [tokenEnv.password]: o.token.password },
    dispose: () => rm(dir, { recursive: true, force: true }),
  };
}

/** The variables the generated settings file reads the token from. */
export const tokenEnv = { username: 'RELCTL_MAVEN_TOKEN_USERNAME', password: 'RELCTL_MAVEN_TOKEN_PASSWORD' } as const;

export async function runInvocation(proc: ProcessRunner, root: string, inv: Invocation, fix: string, env?: Record<string, string>): Promise<string> {
  const r = await proc.mustRun(
    {
      command: inv.command,
      args: inv.args,
      cwd: root,
      mutates: true,
      interactive: inv.interactive,
      purpose: `${inv.command} ${inv.purpose}`,
      ...(inv.input === undefined ? {} : { input: inv.input }),
      ...(env === undefined ? {} : { env }),
    },
    fix,
  );
  return r.output;
}

/** The release plugin run: one invocation, or three for a first release. */
export async function mavenRelease(
  proc: ProcessRunner,
  session: MavenSession,
  root: string,
  v: ReleaseVersions,
  options: { firstRelease: boolean; interactive: boolean },
): Promise<void> {
  for (const inv of mavenReleaseInvocations(session.common, v, options)) {
    await runInvocation(
      proc,
      root,
      inv,
      inv.purpose.includes('perform')
        ? 'Fix the cause shown above; the tag exists now, so `relctl release --resume` releases the next version (the orphan-tag rule).'
        : 'Fix the cause shown above, then run `relctl release --resume`.',
      session.env,
    );
  }
}

/** Every pom.xml of the reactor (root and nested <module>s), for spotting configured plugins. */
export async function reactorPomTexts(root: string): Promise<string[]> {
  const texts: string[] = [];
  const seen = new Set<string>();
  const walk = async (dir: string, depth: number): Promise<void> => {
    const file = path.join(dir, 'pom.xml');
    if (seen.has(file) || depth > 20) return;
    seen.add(file);
    const text = await readFile(file, 'utf8').catch(() => undefined);
    if (text === undefined) return;
    texts.push(text);
    for (const m of text.matchAll(/<module>\s*([^<]+?)\s*<\/module>/g)) {
      const sub = path.resolve(dir, m[1]!);
      if (sub.startsWith(root)) await walk(sub, depth + 1);
    }
  };
  await walk(root, 0);
  return texts;
}

/** The parent POM from the local repository, where ecosystem parents configure these plugins. */
export async function parentPomText(rootPom: string, localRepo: string): Promise<string | undefined> {
  const m = /<parent>([\s\S]*?)<\/parent>/.exec(rootPom);
  if (m === null) return undefined;
  const field = (n: string): string | undefined => new RegExp(`<${n}>\\s*([^<]+?)\\s*</${n}>`).exec(m[1]!)?.[1];
  const [g, a, v] = [field('groupId'), field('artifactId'), field('version')];
  if (g === undefined || a === undefined || v === undefined) return undefined;
  return readFile(path.join(localRepo, ...g.split('.'), a, v, `${a}-${v}.pom`), 'utf8').catch(() => undefined);
}

export async function detectPrepGoals(root: string, localRepo: string): Promise<PrepGoal[]> {
  const texts = await reactorPomTexts(root);
  const parent = texts[0] === undefined ? undefined : await parentPomText(texts[0], localRepo);
  return configuredPrepGoals(parent === undefined ? texts : [...texts, parent]);
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
