import { cp, readFile, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { EnvironmentError, StepFailedError, UsageError } from '../../core/errors.js';
import { decodeMavenFailure, type MavenFailure } from '../../core/build-failures/maven.js';
import { bundleOnlyArgument, bundlePath, nexusLocalStagingArgument } from '../../core/publishing-route.js';
import { distributionRepositoryId } from '../../portal/token.js';
import { displayCommand, mavenReleaseInvocations, rehearsalRedirect, settingsWithMirror, withScmConnection, type ReleaseVersions } from '../../core/release-commands.js';
import { detectPublishingRoute, openMavenSession, privateSettingsPlace, reactorModels, reactorPomFiles, releaseCheckoutDir, type MavenSession } from '../../build-tools/maven-release.js';
import { installedJdks, jdkMajor } from '../../build-tools/java-home.js';
import { descriptorText } from '../../io/descriptor.js';
import { currentBranch, isRepository, runGit } from '../../io/git.js';
import { exists } from '../../io/project.js';
import type { CommandContext } from '../../io/command-context.js';
import type { ProcessRunner } from '../../io/process-runner.js';
import type { PublishingRoute } from '../../core/publishing-route.js';
import { copyVersionFolders, guardLocalRepo, type ArtifactCoordinates } from './local-repo-guard.js';

/**
 * The rehearsal builds exactly as the release builds (issue 19 item 1): in the throwaway copy, made
 * a git repository whose `origin` and `<scm>` are a throwaway bare remote, the same release plugin
 * invocations `relctl release` runs (mavenReleaseInvocations), so the plugin's own `releaseProfiles`,
 * `arguments`, `useReleaseProfile`/`performRelease` and preparation goals apply as they will for
 * real. Only where the deploy goes and the credentials differ (rehearsalRedirect, in MAVEN_OPTS,
 * which every build the plugin forks inherits).
 */
export interface RehearsalBuild {
  /** Each command that ran in the copy, as typed (the summary lists them). */
  commands: string[];
  /** The `-D` properties given to every Maven of the build through MAVEN_OPTS. */
  redirect: string[];
  /** JAVA_HOME the build ran with. */
  javaHome?: string;
  /** Lines saying what relctl chose and why (wrapper, JAVA_HOME). */
  notes: string[];
  route: PublishingRoute;
  releaseDir: string;
  bundle?: string;
}

export interface RehearsalBuildInput {
  copy: string;
  /** The rehearsal's own folder (bare remote, settings), removed with it. */
  work: string;
  versions: ReleaseVersions;
  firstRelease: boolean;
  repositoryId: string;
  deployUrl: string;
  token: { username: string; password: string };
  localRepo: string;
  /** The sandbox's staging API (nexus-staging-maven-plugin's <nexusUrl> in the copy). */
  stagingApiUrl: string;
  keyname?: string;
  mavenMirror?: string;
  skipTests: boolean;
  /** Notes from before the build (what the copy's preparation changed), listed first. */
  notes?: readonly string[];
  /** A successful build's released version, as release:perform installed it, is copied here before the local repository is put back. */
  keepReleased?: string;
}

/** A failed build: what ran, and what the output says (the rehearsal's verdict `build-failed`). */
export class RehearsalBuildFailed extends StepFailedError {
  constructor(
    readonly build: RehearsalBuild,
    readonly failure: MavenFailure & { command: string; deploy: boolean },
    purpose: string,
  ) {
    const cause = failure.cause === undefined ? '' : ` ${failure.cause.message}`;
    super(`The release build failed in ${purpose}.${cause}`, {
      kind: failure.cause === undefined ? 'build-failed' : `build-failed:${failure.cause.code}`,
      fix: failure.cause?.fix ?? 'Fix the cause in the [ERROR] lines above, then rehearse again.',
    });
  }
}

/**
 * Every git the rehearsal starts (its own and the release plugin's): the rehearsal's identity, and
 * no transport but local files (git 2.31+ reads GIT_CONFIG_*), so a push or clone that some
 * configuration still aims at the real remote fails instead of reaching it.
 */
const rehearsalGit = {
  GIT_AUTHOR_NAME: 'relctl rehearsal',
  GIT_AUTHOR_EMAIL: 'rehearsal@relctl.invalid',
  GIT_COMMITTER_NAME: 'relctl rehearsal',
  GIT_COMMITTER_EMAIL: 'rehearsal@relctl.invalid',
  GIT_CONFIG_COUNT: '2',
  GIT_CONFIG_KEY_0: 'protocol.allow',
  GIT_CONFIG_VALUE_0: 'never',
  GIT_CONFIG_KEY_1: 'protocol.file.allow',
  GIT_CONFIG_VALUE_1: 'always',
};

async function git(ctx: CommandContext, cwd: string, args: string[]): Promise<void> {
  const r = await runGit(cwd, args, { env: { ...ctx.env, ...rehearsalGit } });
  if (!r.ok) throw new StepFailedError(`git ${args.join(' ')} failed in the rehearsal copy: ${r.stderr.trim()}`, { kind: 'rehearse-git', fix: 'Rehearse again with --verbose.' });
}

/**
 * The copy's git history: the project's own (a copy of its .git folder, so the release commits and
 * tag descend from the maintainer's history, as the rehearsed notes read it), else a new one.
 * A `.git` file (a worktree) points into the user's repository: never copied, a new history instead.
 */
async function copyHistory(ctx: CommandContext, copy: string): Promise<boolean> {
  const top = await runGit(ctx.cwd, ['rev-parse', '--show-toplevel'], { env: ctx.env });
  const own = path.join(ctx.cwd, '.git');
  if (!top.ok || path.resolve(top.stdout.trim()) !== path.resolve(ctx.cwd) || (await stat(own).catch(() => undefined))?.isDirectory() !== true) return false;
  await cp(own, path.join(copy, '.git'), { recursive: true });
  return true;
}

/**
 * The branch the rehearsal releases from: the project's current one, whatever its name (`master`,
 * `develop`, `1.x`, `release/2.0`), so the bare remote's HEAD names a branch that exists (a remote
 * HEAD on a missing `main` fails release:perform's clone with "couldn't find remote ref HEAD").
 * A project outside git starts a `main`; a detached HEAD is refused as the release refuses it.
 */
async function releaseBranch(ctx: CommandContext): Promise<string> {
  if (!(await isRepository(ctx.cwd, { env: ctx.env }))) return 'main';
  const branch = await currentBranch(ctx.cwd, { env: ctx.env });
  if (branch !== undefined) return branch;
  throw new UsageError('HEAD is detached: the release commits would belong to no branch, so neither the release nor its rehearsal can push them.', {
    kind: 'detached-head',
    fix: 'Check out the branch to release from (git switch <branch>), then rehearse again.',
  });
}

/**
 * The copy as a repository of its own whose `origin` and POM `<scm>` are a throwaway bare remote:
 * the project's history plus one commit of the uncommitted changes (if any), pushed there on the
 * project's own branch, which is also the remote's HEAD and the copy's upstream.
 */
async function makeRepository(ctx: CommandContext, copy: string, remote: string): Promise<void> {
  const branch = await releaseBranch(ctx);
  await git(ctx, path.dirname(remote), ['init', '-q', '--bare', '-b', branch, remote]);
  const pom = path.join(copy, 'pom.xml');
  await writeFile(pom, withScmConnection(await readFile(pom, 'utf8'), `file://${remote}`));
  const history = await copyHistory(ctx, copy);
  if (!history) await git(ctx, copy, ['init', '-q', '-b', branch]);
  // The maintainer's config may sign commits and tags (a prompt in the middle of the build) or run hooks.
  for (const [k, v] of [['commit.gpgSign', 'false'], ['tag.gpgSign', 'false'], ['core.hooksPath', '/dev/null']]) await git(ctx, copy, ['config', k!, v!]);
  await git(ctx, copy, ['add', '-A']);
  await git(ctx, copy, ['commit', '-q', '--no-verify', '--allow-empty', '-m', 'relctl rehearsal: the working tree as the rehearsal found it']);
  await git(ctx, copy, ['remote', 'remove', 'origin']).catch(() => undefined);
  await git(ctx, copy, ['remote', 'add', 'origin', remote]);
  await git(ctx, copy, ['push', '-q', '-u', 'origin', `HEAD:refs/heads/${branch}`]);
}

/** The reactor's modules (groupId inherited from the parent where unset), for the local repository guard. */
async function reactorCoordinates(copy: string): Promise<ArtifactCoordinates[]> {
  return (await reactorModels(copy)).flatMap((m) => {
    const groupId = m.groupId?.value ?? m.parent?.groupId;
    const artifactId = m.artifactId?.value;
    return groupId === undefined || artifactId === undefined ? [] : [{ groupId, artifactId }];
  });
}

/**
 * The settings a rehearsal's Maven starts from: the user's own (mirrors, profiles), with the
 * --maven-mirror when asked, written in the rehearsal's folder (a missing file when there are none);
 * the session adds the sandbox's <server>.
 */
export async function rehearsalBaseSettings(ctx: CommandContext, work: string, mavenMirror: string | undefined): Promise<string> {
  const userSettings = ctx.config.settings ?? path.join(ctx.env.HOME ?? os.homedir(), '.m2', 'settings.xml');
  let base = (await exists(userSettings)) ? descriptorText(userSettings) : undefined;
  if (mavenMirror !== undefined) base = settingsWithMirror(base ?? '<settings>\n</settings>\n', mavenMirror);
  if (base === undefined) return path.join(work, 'no-settings.xml');
  const baseFile = path.join(work, 'base-settings.xml');
  await writeFile(baseFile, base, { mode: 0o600 });
  return baseFile;
}

export async function rehearsalBuild(ctx: CommandContext, proc: ProcessRunner, o: RehearsalBuildInput): Promise<RehearsalBuild> {
  const route = await detectPublishingRoute(o.copy, o.localRepo);
  // nexus-staging-maven-plugin deploys to the <nexusUrl> its POM names (no property overrides an
  // explicit configuration): the copy's is pointed at the sandbox before the copy is committed.
  const serverId = route === 'nexus-staging' ? await redirectNexusUrl(o.copy, o.stagingApiUrl) : o.repositoryId;
  await makeRepository(ctx, o.copy, path.join(o.work, 'remote.git'));
  const modules = await reactorCoordinates(o.copy);
  const installed = await guardLocalRepo(o.localRepo, modules, [o.versions.version, o.versions.nextVersion], path.join(o.work, 'local-repo-backup'));
  const notes = [...(o.notes ?? [])];
  const session = await openMavenSession(
    {
      root: o.copy,
      env: ctx.env,
      userSettings: await rehearsalBaseSettings(ctx, o.work, o.mavenMirror),
      localRepo: o.localRepo,
      token: { ...o.token, serverId },
      checksums: ctx.config.checksums,
      note: (line) => notes.push(line),
    },
    false,
  );
  try {
    const build = await buildWithSession(ctx, proc, o, session, { route, notes });
    if (o.keepReleased !== undefined) await copyVersionFolders(o.localRepo, modules, o.versions.version, o.keepReleased);
    return build;
  } finally {
    await session.dispose();
    await installed.restore();
  }
}

/**
 * Points every `<nexusUrl>` written in the copy's reactor POMs at the sandbox (a text edit, the rest
 * of each POM kept) and returns the plugin's `<serverId>` (the sandbox token's settings id). A build
 * whose `<nexusUrl>` is not written in the project (inherited from a parent outside it, or left to
 * a property set elsewhere) cannot be redirected: refused before anything runs, since its deploy
 * would reach the Nexus it names, a real server.
 */
async function redirectNexusUrl(copy: string, stagingApiUrl: string): Promise<string> {
  let redirected = 0;
  let serverId: string | undefined;
  for (const { file, text } of await reactorPomFiles(copy)) {
    const edited = text.replace(/(<nexusUrl>)[^<]*(<\/nexusUrl>)/g, (_m, open: string, close: string) => {
      redirected++;
      return `${open}${stagingApiUrl.replace(/\/+$/, '')}/${close}`;
    });
    if (edited !== text) await writeFile(file, edited);
    serverId ??= distributionRepositoryId(text);
  }
  if (redirected === 0) {
    throw new EnvironmentError("The build deploys with nexus-staging-maven-plugin, whose <nexusUrl> is not written in the project's POMs (it comes from a parent outside the project or a property set elsewhere); the rehearsal cannot point it at the sandbox.", {
      kind: 'rehearse-nexus-staging',
      fix: "Write the plugin's <nexusUrl> in the project's own POM (it may repeat the parent's value), or check what the build produced with relctl verify.",
    });
  }
  return serverId ?? 'central';
}

/** The release invocations with the session's settings and environment plus the redirect. */
async function buildWithSession(
  ctx: CommandContext,
  proc: ProcessRunner,
  o: RehearsalBuildInput,
  session: MavenSession,
  { route, notes }: { route: PublishingRoute; notes: string[] },
): Promise<RehearsalBuild> {
  // The central-publishing plugin builds its bundle and never uploads it (relctl uploads it to the sandbox).
  const redirect = [...rehearsalRedirect({ ...o, ...(o.keyname === undefined ? {} : { keyname: o.keyname }) }), ...(route === 'portal-plugin' ? ['-DskipUpload=true'] : [])];
  if (route === 'nexus-staging') notes.push(`nexus-staging-maven-plugin's <nexusUrl> points at the sandbox (${o.stagingApiUrl}/) in the copy; it stages locally (${nexusLocalStagingArgument}), then deploy-staged uploads and closes after verify`);
  const javaHome = session.env?.JAVA_HOME ?? ctx.env.JAVA_HOME;
  const jdk = javaHome === undefined ? undefined : await jdkMajor(javaHome);
  const build: RehearsalBuild = {
    commands: [],
    redirect,
    ...(javaHome === undefined ? {} : { javaHome }),
    notes,
    route,
    releaseDir: releaseCheckoutDir(o.copy),
    ...(route === 'portal-plugin' ? { bundle: path.join(releaseCheckoutDir(o.copy), ...bundlePath) } : {}),
  };
  const env: Record<string, string> = {
    ...session.env,
    ...rehearsalGit,
    MAVEN_OPTS: [session.env?.MAVEN_OPTS, ...redirect].filter((x) => x !== undefined && x !== '').join(' '),
  };
  const invocations = mavenReleaseInvocations(session.common, o.versions, {
    firstRelease: o.firstRelease,
    interactive: false,
    ...(route === 'portal-plugin' ? { extraArgs: [bundleOnlyArgument] } : route === 'nexus-staging' ? { extraArgs: [nexusLocalStagingArgument] } : {}),
  });
  for (const inv of invocations) {
    const command = displayCommand(inv.command, inv.args);
    build.commands.push(command);
    const r = await proc.run({ command: inv.command, args: inv.args, cwd: o.copy, mutates: true, purpose: `${inv.command} ${inv.purpose}`, env });
    if (r.exitCode === 0) continue;
    const failure = decodeMavenFailure(r.output, { ...(jdk === undefined ? {} : { jdk }), installedJdks: await installedJdks(), rehearsal: true, serverSettings: privateSettingsPlace });
    const deploy = /Failed to deploy artifacts|Failed to retrieve remote metadata|status: 40\d/.test(failure.errors.join('\n'));
    throw new RehearsalBuildFailed(build, { ...failure, command, deploy }, `${inv.command} ${inv.purpose}`);
  }
  return build;
}
