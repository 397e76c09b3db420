import { budgetDocument, budgetText, projectBudget } from '../publishing-budget.js';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { EnvironmentError, InterruptedError, UsageError } from '../../core/errors.js';
import { onInterrupt } from '../../io/interrupt.js';
import { makeOwnedTempDir, ownerMarker } from '../../io/owned-temp.js';
import { removeLeftoversOfKilledRuns } from '../stale-runs.js';
import { toReport } from '../../core/findings.js';
import { parseVersion } from '../../core/version.js';
import { planChosenRelease, type ChosenVersions } from '../../core/chosen-versions.js';
import { versionInTag } from '../../core/tag-forms.js';
import { withLearnedTagFormat } from '../learned-tag-format.js';
import { checks } from '../../checks/index.js';
import { runChecks } from '../../checks/run-checks.js';
import { gatherFacts } from '../../checks/gather-facts.js';
import { applyFindingRules } from '../../core/finding-rules.js';
import { findingsText } from '../../ui/render/findings.js';
import { resolveSigningKey } from '../../keys/fingerprint.js';
import { exportPublicKey } from '../../keys/gpg.js';
import { httpFor } from '../../portal/session.js';
import { publishAndFetch } from './publish-fetch.js';
import type { CommandContext } from '../../io/command-context.js';
import { ProcessRunner } from '../../io/process-runner.js';
import { listTags } from '../../io/git.js';
import { readIdentity } from '../../io/project.js';
import { localRepoOfContext } from '../maven-local-repo.js';
import { runChain } from '../runner.js';
import { createThrowawayKey, publishOnSandbox, type ThrowawayKey } from './sandbox-key.js';
import { copyProject } from './workspace.js';
import type { RehearsalBuild } from './release-build.js';
import { buildMaven } from './build-step.js';
import { startRehearsalSandbox, type RehearsalSandbox } from './sandbox.js';
import { gradlePublication, stageInSandbox } from './gradle-folder.js';

export interface RehearseOptions {
  /** `--usage FILE`: the Usage Center's export, for the budget the rehearsal reports. */
  usage?: string;
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
  /** -DskipTests for the rehearsal's builds only (a real release runs the tests). */
  skipTests?: boolean;
  /** Gradle: the Maven-layout folder the build published (default build/staging-deploy, build/repo, build/m2). */
  stagingDir?: string;
  /** `--release-version` / `--next-version`, counted as the release counts them. */
  versions?: ChosenVersions;
  /** A sandbox shared by several rehearsals (a fleet's), left running; else the rehearsal starts and stops its own. */
  sandbox?: RehearsalSandbox;
  /** Edits the throwaway copy before it is built (a fleet child moved onto its parent's rehearsed release); returns notes for the report. */
  prepareCopy?: (copy: string) => Promise<string[]>;
  /** Maven: the released version as release:perform installed it is copied here (Maven layout) before the local repository is put back. */
  keepReleased?: string;
}

import { succeeded, type RehearsalResult } from './result.js';
export type { RehearsalBuildReport, RehearsalResult } from './result.js';

/**
 * `relctl rehearse` (issue 5 part 6): a throwaway copy, an embedded sandbox, the project's own
 * build deploying to it, then verify, upload and status exactly as a release would, and the
 * portal's verdict. The user's repository, tags and the real services are never touched.
 */
export async function rehearse(ctx: CommandContext, o: RehearseOptions): Promise<RehearsalResult> {
  // The release's version rule on the project's own tags (a tag whose publication cannot be known
  // here counts as an orphan, as preflight --offline does), in the format they show.
  const declared = await readIdentity(ctx.cwd);
  const tags = await listTags(ctx.cwd, { env: ctx.env });
  const identity = withLearnedTagFormat(ctx, declared, tags);
  const current = parseVersion(identity.version);
  const plan =
    current === undefined || !current.snapshot
      ? undefined
      : planChosenRelease({ current, artifactId: identity.artifactId, ...(identity.tagTemplate === undefined ? {} : { tagTemplate: identity.tagTemplate }), existingTags: tags, published: {} }, o.versions ?? {});
  if (plan?.nextTooLow === true) {
    throw new UsageError(`--next-version ${o.versions?.next} is not above ${plan.release}, the version the rehearsal releases${plan.skipped.length === 0 ? '' : ` (a tag of ${plan.skipped.map((s) => s.version).join(', ')} exists: the orphan-tag rule moves on)`}.`, {
      kind: 'bad-version-option',
      fix: `Name a snapshot above ${plan.release} with --next-version, or drop it.`,
    });
  }
  const version = plan?.release ?? identity.version;
  const tag = plan?.tag ?? `${identity.artifactId}-${version}`;
  // No earlier release tag of this artifactId: the release runs the three goals separately (version-decision.ts).
  const firstRelease = !tags.some((t) => parseVersion(versionInTag(t, identity.artifactId, identity.tagTemplate) ?? '')?.snapshot === false);
  const result: RehearsalResult = {
    ok: false,
    verdict: 'error',
    project: { groupId: identity.groupId, artifactId: identity.artifactId, version, ...(plan === undefined ? {} : { nextVersion: plan.nextDevelopment }), tag, buildTool: identity.buildTool },
    preflight: { errors: 0, warnings: 0, findings: [] },
    signing: { throwaway: o.sign },
  };

  // Preflight on the real project, offline, reported: the rehearsal goes on to show the portal's view.
  const report = applyFindingRules(toReport(runChecks(checks, await gatherFacts(ctx, { offline: true }), { offline: true })), ctx.config.rules);
  result.preflight = {
    errors: report.findings.filter((f) => f.severity === 'error').length,
    warnings: report.findings.filter((f) => f.severity === 'warning').length,
    findings: report.findings,
  };
  if (report.findings.length > 0 && !ctx.out.json) {
    // Said first, plainly: a demo that opens on a red "error" line reads as a broken install.
    ctx.out.info(`Rehearsing ${identity.groupId}:${identity.artifactId} ${version}. First, the preflight a real release runs (offline):`);
    ctx.out.info(findingsText(report, ctx.out.c, 'preflight (a real release would stop at its errors; the rehearsal goes on)'));
  }

  // The month's publishing budget, as a real release would check it before tagging (DESIGN §5a):
  // reported; over it, a real release stops, the rehearsal goes on.
  const budget = await projectBudget(ctx, o.usage === undefined ? {} : { usage: o.usage });
  result.publishingBudget = budgetDocument(budget);
  if (!ctx.out.json) {
    ctx.out.info(budgetText(budget).join('\n'));
    if (budget.verdict.over.length > 0) ctx.out.warn(`A real release would stop here: over the month's publishing limits (${budget.verdict.over.join(', ')}); the rehearsal goes on.`);
  }

  await removeLeftoversOfKilledRuns(ctx);
  const work = await makeOwnedTempDir('relctl-rehearse-');
  const copy = path.join(work, 'project');
  let key: ThrowawayKey | undefined;
  // The throwaway folder holds a settings file with the sandbox token and maybe a secret key: it
  // goes on every path out, an interrupt included (src/cli.ts runs this if we cannot unwind).
  const removeWork = (): Promise<void> => (o.keep ? Promise.resolve() : rm(work, { recursive: true, force: true }));
  const unregister = onInterrupt(async () => {
    await key?.dispose();
    await removeWork();
  });
  const own = o.sandbox === undefined ? await startRehearsalSandbox(ctx, work, ['rehearsal']) : undefined;
  const { urls, user, seedRepo } = o.sandbox ?? own!.accounts.get('rehearsal')!;
  try {
    ctx.out.info(`Rehearsing ${identity.groupId}:${identity.artifactId} ${version} in ${copy} against a sandbox at ${new URL(urls.portalUrl).origin}`);
    await copyProject(ctx.cwd, copy);
    const copyNotes = (await o.prepareCopy?.(copy)) ?? [];

    // XDG_STATE_HOME in the throwaway folder: a sandbox deployment that ends PUBLISHED (a build that
    // publishes on its own) must not count in the organization's real record of publications.
    const env: NodeJS.ProcessEnv = { ...ctx.env, RELCTL_TOKEN_USERNAME: user.name, RELCTL_TOKEN_PASSWORD: user.password, XDG_STATE_HOME: path.join(work, 'state') };
    // A namespace given for the real portal is not the sandbox account's: there it is found from the repository the build opened.
    const { namespace: _realNamespace, ...realConfig } = ctx.config;
    const config = { ...realConfig, ...urls };
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

    if (plan === undefined) {
      throw new EnvironmentError(`The current version ${identity.version} is not a snapshot the release can count from.`, {
        kind: 'not-snapshot',
        fix: 'Set the version to the next X.Y.Z-SNAPSHOT (any number of parts) and rehearse again.',
      });
    }
    const deployUrl = `${urls.stagingApiUrl}/service/local/staging/deploy/maven2/`;
    const proc = new ProcessRunner(ctx.out, env, false, ctx.signal);
    let staged: { releaseDir: string; route?: RehearsalBuild['route']; bundle?: string };
    if (identity.buildTool === 'maven') {
      const build = await buildMaven(ctx, proc, result, {
        copy,
        work,
        versions: { version, nextVersion: plan.nextDevelopment, tag },
        firstRelease,
        repositoryId: identity.repositoryId ?? 'central',
        deployUrl,
        token: { username: user.name, password: user.password },
        localRepo: await localRepoOfContext(ctx),
        stagingApiUrl: urls.stagingApiUrl,
        ...(result.signing.fingerprint === undefined ? {} : { keyname: result.signing.fingerprint }),
        ...(o.mavenMirror === undefined ? {} : { mavenMirror: o.mavenMirror }),
        skipTests: o.skipTests === true,
        notes: copyNotes,
        ...(o.keepReleased === undefined ? {} : { keepReleased: o.keepReleased }),
      }, seedRepo);
      staged = { releaseDir: build.releaseDir, route: build.route, ...(build.bundle === undefined ? {} : { bundle: build.bundle }) };
    } else {
      // Gradle: the build is not rehearsed; the folder it published is deployed as its publish would.
      const set = await gradlePublication(ctx.cwd, o.stagingDir);
      const count = await stageInSandbox(rctx, set, copy, deployUrl, user);
      result.build = { commands: [], redirect: [], notes: [`the Gradle build is not rehearsed: the ${count} files of ${set.from} were deployed to the sandbox as its publish would`], parents: [] };
      staged = { releaseDir: path.join(copy, 'build') };
    }

    const chain = await runChain(
      { ctx: rctx, options: { dryRun: false, yes: true, interactive: false, offline: false, waitTimeout: o.waitTimeout }, proc },
      {
        command: 'rehearse',
        steps: ['verify', 'upload', 'status'],
        initial: {
          buildTool: identity.buildTool,
          groupId: identity.groupId,
          artifactId: identity.artifactId,
          currentVersion: identity.version,
          version,
          nextVersion: plan.nextDevelopment,
          tag,
          releaseDir: staged.releaseDir,
          ...(staged.route === undefined ? {} : { publishingRoute: staged.route }),
          ...(staged.bundle === undefined ? {} : { bundle: staged.bundle }),
        },
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
    result.ok = succeeded(result.verdict);
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
    await own?.running.close();
    await key?.dispose();
    if (o.keep) {
      result.workspace = work;
      // Kept for the user: no longer relctl's to remove in a later run.
      await rm(path.join(work, ownerMarker), { force: true });
    } else await removeWork();
    unregister();
  }
}
