import { createHash, randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { EnvironmentError, InterruptedError } from '../../core/errors.js';
import { onInterrupt } from '../../io/interrupt.js';
import { toReport, type Finding } from '../../core/findings.js';
import { mavenDeployInvocation, settingsWithMirror, settingsWithServer, signingProfiles } from '../../core/release-commands.js';
import { parseVersion, releaseVersionOf, formatVersion, releaseTagName } from '../../core/version.js';
import { checks } from '../../checks/index.js';
import { runChecks } from '../../checks/run-checks.js';
import { gatherFacts } from '../../io/gather-facts.js';
import { findingsText } from '../../ui/render/findings.js';
import { resolveSigningKey } from '../../keys/fingerprint.js';
import { exportPublicKey } from '../../keys/gpg.js';
import { digestOf } from '../../keys/artifact-files.js';
import { fromMavenTargets } from '../../keys/artifacts.js';
import { httpFor, portalSession } from '../../portal/session.js';
import { mavenExecutable, reactorPomTexts, runInvocation } from '../../build-tools/maven-release.js';
import type { CommandContext } from '../../io/command-context.js';
import { startSandbox } from '../../sandbox/server.js';
import { ProcessRunner } from '../../io/process-runner.js';
import { descriptorText } from '../../io/descriptor.js';
import { exists, readIdentity } from '../../io/project.js';
import { runChain, type ChainSummary } from '../runner.js';
import { createThrowawayKey, publishOnSandbox, type ThrowawayKey } from './sandbox-key.js';
import { copyProject, setReleaseVersion } from './workspace.js';

export interface RehearseOptions {
  /** Sign with a throwaway key created, published and confirmed on the sandbox key server. */
  sign: boolean;
  /** After VALIDATED, publish and fetch the jars back from the sandbox's public repository. */
  publish: boolean;
  /** A mirror of everything for Maven (an offline machine: file:///usr/share/maven-repo). */
  mavenMirror?: string;
  keep: boolean;
  waitTimeout: number;
  /** After PUBLISHED, rehearse notes, distribute and notify against the sandbox's GitHub and SMTP. */
  postRelease?: boolean;
}

export interface RehearsalResult {
  ok: boolean;
  verdict: 'VALIDATED' | 'PUBLISHED' | 'FAILED' | 'verify-failed' | 'deploy-failed' | 'pending' | 'error';
  project: { groupId: string; artifactId: string; version: string; tag: string; buildTool: string };
  preflight: { errors: number; warnings: number; findings: Finding[] };
  signing: { fingerprint?: string; throwaway: boolean; profiles: string[] };
  chain?: ChainSummary;
  deploymentId?: string;
  fetched?: { file: string; bytes: number; sha1: string; matchesBuild: boolean }[];
  /** --post-release: the notes, distribute and notify steps against the sandbox. */
  postRelease?: ChainSummary;
  workspace?: string;
  error?: { kind: string; message: string; fix?: string };
}

/**
 * `relctl rehearse` (issue 5 part 6): a throwaway copy, an embedded sandbox, the project's own
 * build deploying to it, then verify, upload and status exactly as a release would, and the
 * portal's verdict. The user's repository, tags and the real services are never touched.
 */
export async function rehearse(ctx: CommandContext, o: RehearseOptions): Promise<RehearsalResult> {
  const identity = await readIdentity(ctx.cwd);
  const current = parseVersion(identity.version);
  const version = current === undefined ? identity.version : formatVersion(releaseVersionOf(current));
  const tag = releaseTagName(identity.artifactId, version);
  const result: RehearsalResult = {
    ok: false,
    verdict: 'error',
    project: { groupId: identity.groupId, artifactId: identity.artifactId, version, tag, buildTool: identity.buildTool },
    preflight: { errors: 0, warnings: 0, findings: [] },
    signing: { throwaway: o.sign, profiles: [] },
  };

  // Preflight on the real project, offline, reported: the rehearsal goes on to show the portal's view.
  const report = toReport(runChecks(checks, await gatherFacts(ctx, { offline: true }), { offline: true }));
  result.preflight = {
    errors: report.findings.filter((f) => f.severity === 'error').length,
    warnings: report.findings.filter((f) => f.severity === 'warning').length,
    findings: report.findings,
  };
  if (report.findings.length > 0 && !ctx.out.json) ctx.out.info(findingsText(report, ctx.out.c, 'preflight (a real release would stop at its errors; the rehearsal goes on)'));

  const work = await mkdtemp(path.join(os.tmpdir(), 'relctl-rehearse-'));
  const copy = path.join(work, 'project');
  const user = { name: 'rehearsal', password: randomBytes(12).toString('hex') };
  ctx.out.redactor.add(user.password);
  let key: ThrowawayKey | undefined;
  // The throwaway folder holds a settings file with the sandbox token and maybe a secret key: it
  // goes on every path out, an interrupt included (src/cli.ts runs this if we cannot unwind).
  const removeWork = (): Promise<void> => (o.keep ? Promise.resolve() : rm(work, { recursive: true, force: true }));
  const unregister = onInterrupt(async () => {
    await key?.dispose();
    await removeWork();
  });
  const sandbox = await startSandbox({ users: [user] });
  try {
    ctx.out.info(`Rehearsing ${identity.groupId}:${identity.artifactId} ${version} in ${copy} against a sandbox at ${new URL(sandbox.urls.portalUrl).origin}`);
    await copyProject(ctx.cwd, copy);
    await setReleaseVersion(copy, identity.buildTool, identity.version, version);

    const urls = sandbox.urls;
    const env: NodeJS.ProcessEnv = { ...ctx.env, RELCTL_TOKEN_USERNAME: user.name, RELCTL_TOKEN_PASSWORD: user.password };
    const config = { ...ctx.config, ...urls };
    const rctx: CommandContext = { ...ctx, cwd: copy, env, config, canPrompt: false };
    const http = httpFor(rctx);
    try {
      if (o.sign) {
        key = await createThrowawayKey(ctx.signal);
        env.GNUPGHOME = key.gnupgHome;
        result.signing.fingerprint = key.fingerprint;
        await publishOnSandbox(http, { keyserverUrl: urls.keyserverUrl, controlUrl: `${new URL(urls.portalUrl).origin}/sandbox` }, key.armored, [key.email]);
      } else {
        const own = await resolveSigningKey({ cwd: ctx.cwd, env: ctx.env, ...(ctx.config.fingerprint === undefined ? {} : { fingerprint: ctx.config.fingerprint }) }).catch(() => undefined);
        const armored = own === undefined ? undefined : await exportPublicKey({ env: ctx.env }, own.fingerprint).catch(() => undefined);
        if (own !== undefined && armored !== undefined) {
          result.signing.fingerprint = own.fingerprint;
          await publishOnSandbox(http, { keyserverUrl: urls.keyserverUrl, controlUrl: `${new URL(urls.portalUrl).origin}/sandbox` }, armored, own.local?.emails ?? []);
        } else {
          ctx.out.warn('No signing key found: the build signs only if the project signs on its own (try --sign for a throwaway key).');
        }
      }
    } finally {
      await http.close();
    }

    // The project's own build deploys to the sandbox.
    if (identity.buildTool !== 'maven') {
      throw new EnvironmentError('Rehearsing a Gradle build is not supported yet.', {
        kind: 'rehearse-gradle',
        fix: 'Publish the Gradle build into a local folder and check it with relctl verify --dir <folder>.',
      });
    }
    const profiles = signingProfiles(await reactorPomTexts(copy));
    result.signing.profiles = profiles;
    const userSettings = ctx.config.settings ?? path.join(ctx.env.HOME ?? os.homedir(), '.m2', 'settings.xml');
    const base = (await exists(userSettings)) ? descriptorText(userSettings) : undefined;
    const repositoryId = identity.repositoryId ?? 'central';
    let settings = settingsWithServer(base, repositoryId, user.name, user.password);
    if (o.mavenMirror !== undefined) settings = settingsWithMirror(settings, o.mavenMirror);
    const settingsFile = path.join(work, 'settings.xml');
    await writeFile(settingsFile, settings, { mode: 0o600 });
    await chmod(settingsFile, 0o600);
    const inv = mavenDeployInvocation(
      { executable: await mavenExecutable(copy), settingsFile, ...(ctx.config.localRepo === undefined ? {} : { localRepo: ctx.config.localRepo }) },
      {
        repositoryId,
        deployUrl: `${urls.stagingApiUrl}/service/local/staging/deploy/maven2/`,
        profiles,
        ...(result.signing.fingerprint === undefined ? {} : { keyname: result.signing.fingerprint }),
      },
    );
    const proc = new ProcessRunner(ctx.out, env, false, ctx.signal);
    const spinner = await ctx.out.spinner(`Building and deploying to the sandbox (${inv.command} ${inv.purpose})`);
    try {
      await runInvocation(proc, copy, inv, 'Fix the build (it fails the same way outside relctl), then rehearse again.');
      spinner.succeed('Built and deployed to the sandbox');
    } catch (error) {
      spinner.fail(ctx.signal.aborted ? 'The build was stopped' : 'The build failed');
      result.verdict = 'deploy-failed';
      throw error;
    }

    const chain = await runChain(
      { ctx: rctx, options: { dryRun: false, yes: true, interactive: false, offline: false, waitTimeout: o.waitTimeout }, proc },
      {
        command: 'rehearse',
        steps: ['verify', 'upload', 'status'],
        initial: { buildTool: 'maven', groupId: identity.groupId, artifactId: identity.artifactId, currentVersion: identity.version, version, tag },
        returnFailures: true,
      },
    );
    result.chain = chain;
    const rc = chain.context;
    if (rc.deploymentId !== undefined) result.deploymentId = rc.deploymentId;
    if (!chain.ok) {
      const failed = chain.steps.find((s) => s.status === 'failed');
      result.verdict = failed?.id === 'verify' ? 'verify-failed' : chain.error?.kind === 'deployment-failed' ? 'FAILED' : 'error';
      if (chain.error !== undefined) {
        result.error = { ...chain.error, fix: result.verdict === 'verify-failed' ? 'Fix the findings above, then rehearse again.' : (chain.error.fix ?? 'Rehearse again.') };
      }
      return result;
    }
    result.verdict = rc.deploymentState === 'VALIDATED' ? 'VALIDATED' : rc.deploymentState === 'PUBLISHED' ? 'PUBLISHED' : 'pending';
    result.ok = result.verdict === 'VALIDATED' || result.verdict === 'PUBLISHED';
    if (o.publish && result.verdict === 'VALIDATED' && rc.deploymentId !== undefined) {
      result.fetched = await publishAndFetch(rctx, rc.deploymentId, copy);
      result.verdict = 'PUBLISHED';
    }
    if (o.postRelease === true && result.verdict === 'PUBLISHED') {
      const { rehearsePostRelease } = await import('./post-release.js');
      result.postRelease = await rehearsePostRelease({
        src: ctx.cwd,
        copy,
        rctx,
        smtpUrl: urls.smtpUrl!,
        githubApiUrl: urls.githubApiUrl,
        proc,
        initial: { ...rc, deploymentState: 'PUBLISHED' },
      });
      if (!result.postRelease.ok) result.ok = false;
    }
    return result;
  } catch (error) {
    if (ctx.signal.aborted) {
      throw new InterruptedError('Interrupted: the rehearsal stopped; its build, throwaway copy, signing key and sandbox are gone. Nothing real was touched.', {
        fix: 'Run relctl rehearse again.',
      });
    }
    const e = error as { kind?: string; message?: string; fix?: string };
    result.error = { kind: e.kind ?? 'internal', message: e.message ?? String(error), ...(e.fix === undefined ? {} : { fix: e.fix }) };
    // Anything but a failed build is not a verdict about the project: report it as the error it is.
    if (result.verdict === 'error') throw error;
    return result;
  } finally {
    await sandbox.close();
    await key?.dispose();
    if (o.keep) result.workspace = work;
    else await removeWork();
    unregister();
  }
}

/** The portal's Publish, then each component's main jar fetched back from the public repository. */
async function publishAndFetch(ctx: CommandContext, deploymentId: string, copy: string): Promise<RehearsalResult['fetched']> {
  const session = await portalSession(ctx);
  try {
    await session.portal.publish(deploymentId);
    let status = await session.portal.status(deploymentId);
    for (let i = 0; i < 60 && status.deploymentState !== 'PUBLISHED'; i++) {
      await new Promise((r) => setTimeout(r, 500));
      status = await session.portal.status(deploymentId);
    }
    const built = await fromMavenTargets(copy);
    const fetched: NonNullable<RehearsalResult['fetched']> = [];
    for (const purl of status.purls) {
      const m = /^pkg:maven\/([^/]+)\/([^@]+)@(.+)$/.exec(purl);
      if (m === null) continue;
      const [, g, a, v] = m as unknown as [string, string, string, string];
      const p = `${g.replace(/\./g, '/')}/${a}/${v}/${a}-${v}.jar`;
      // A published file, not an API answer: the 4 MiB answer cap does not fit jars.
      const res = await session.http.request({ method: 'GET', url: `${ctx.config.publicRepoUrl}/${p}`, maxResponseBytes: 256 * 1024 * 1024 });
      if (res.status !== 200) continue;
      const sha1 = createHash('sha1').update(res.body).digest('hex');
      const local = built.files.get(p);
      fetched.push({ file: p, bytes: res.body.length, sha1, matchesBuild: local !== undefined && (await digestOf(local, 'sha1')) === sha1 });
    }
    return fetched;
  } finally {
    await session.http.close();
  }
}
