import path from 'node:path';
import {
  configuredPrepGoals,
  displayCommand,
  mavenDeployStagedInvocation,
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
import { StepFailedError } from '../core/errors.js';
import { decodeMavenFailure } from '../core/build-failures/maven.js';
import { installedJdks, jdkMajor } from './java-home.js';
import { tokenEnv, privateSettingsPlace, type MavenSession } from './maven-session.js';
import { publishingRoute, type PublishingRoute } from '../core/publishing-route.js';
import { preparedRelease, type PreparedRelease } from '../core/release-properties.js';
import type { ProcessRunner } from '../io/process-runner.js';
import { descriptorText } from '../io/descriptor.js';
import { relativeToRoot, repositoryPomPath } from './maven/load.js';
import { statOf } from '../io/stat-of.js';

/** The Maven session (private Maven home, settings, environment): maven-session.ts. */
export { openMavenSession, privateSettingsPlace, type MavenSession } from './maven-session.js';


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
  if (r.exitCode !== 0) throw await buildFailed(inv, r, fix, root, env?.JAVA_HOME, env?.[tokenEnv.username] !== undefined);
  return r.output;
}

/**
 * A failed build tool run: the first [ERROR] lines (else the output's tail) and, for Maven, the
 * cause where the pattern is known (core/build-failures), whose fix comes before the step's own.
 */
async function buildFailed(inv: Invocation, r: { exitCode: number; output: string }, fix: string, root: string, javaHome: string | undefined, tokenInEnv: boolean): Promise<StepFailedError> {
  const major = javaHome === undefined ? undefined : await jdkMajor(javaHome);
  const decoded = /(^|\/)mvnw?$/.test(inv.command)
    ? decodeMavenFailure(r.output, {
        rehearsal: false,
        installedJdks: await installedJdks(),
        ...(major === undefined ? {} : { jdk: major }),
        serverSettings: tokenInEnv ? privateSettingsPlace : 'your settings.xml, which relctl copies into its private Maven home',
      })
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

/** One POM of the reactor: its file, its text (plugins are spotted in it) and its model when it parses. */
interface ReactorPom {
  file: string;
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
    poms.push(parsed.ok ? { file, text, pom: parsed.pom } : { file, text });
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

/** The reactor's POM files (root first, nested <module>s), with their texts. */
export async function reactorPomFiles(root: string): Promise<{ file: string; text: string }[]> {
  return (await reactorPoms(root)).map((p) => ({ file: p.file, text: p.text }));
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
 * The nexus-staging route's upload: deploy-staged in the release checkout. Its output is returned
 * even when it fails (a close refused by the portal's rules still names the staging repository,
 * whose portal deployment then holds the verdict).
 */
export async function mavenDeployStaged(proc: ProcessRunner, session: MavenSession, checkout: string): Promise<{ exitCode: number; output: string; command: string }> {
  const inv = mavenDeployStagedInvocation(session.common);
  const r = await proc.run({
    command: inv.command,
    args: inv.args,
    cwd: checkout,
    mutates: true,
    interactive: false,
    purpose: `${inv.command} ${inv.purpose}`,
    ...(session.env === undefined ? {} : { env: session.env }),
  });
  return { exitCode: r.exitCode, output: r.output, command: displayCommand(inv.command, inv.args) };
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
