import { rm } from 'node:fs/promises';
import path from 'node:path';
import { namespacesPage } from '../../checks/snapshots-need-enabling.js';
import { UsageError } from '../../core/errors.js';
import { displayCommand, mavenSnapshotDeployInvocation } from '../../core/release-commands.js';
import { isSnapshotVersion } from '../../core/version.js';
import { openMavenSession } from '../../build-tools/maven-session.js';
import type { CommandContext } from '../../io/command-context.js';
import { onInterrupt } from '../../io/interrupt.js';
import { makeOwnedTempDir } from '../../io/owned-temp.js';
import { ProcessRunner } from '../../io/process-runner.js';
import { readIdentity } from '../../io/project.js';
import { localRepoOfContext } from '../maven-local-repo.js';
import { rehearsalBaseSettings } from './release-build.js';
import { startRehearsalSandbox } from './sandbox.js';
import { copyProject } from './workspace.js';

/** The <server> id the snapshot deploy authenticates with: the sandbox's token, in the session settings only. */
const serverId = 'relctl-rehearsal-snapshots';

export interface SnapshotRehearsalOptions {
  /** Rehearse as if SNAPSHOTs were enabled for the namespace (the real portal's default is off). */
  enabled: boolean;
  mavenMirror?: string;
  skipTests: boolean;
  keep: boolean;
}

export interface SnapshotRehearsalResult {
  ok: boolean;
  verdict: 'deployed' | 'snapshots-disabled' | 'deploy-failed';
  project: { groupId: string; artifactId: string; version: string };
  namespace: string;
  /** Whether the sandbox had SNAPSHOTs enabled for the namespace. */
  snapshotsEnabled: boolean;
  command: string;
  workspace?: string;
  error?: { code: string; message: string; fix: string };
}

/**
 * `relctl rehearse --snapshot`: the -SNAPSHOT deployed as CI deploys it, a real `mvn deploy` of a
 * throwaway copy to the snapshot repository of an embedded sandbox, which answers as the portal
 * does: 403 until SNAPSHOTs are enabled for the namespace (off by default, as on the portal).
 */
export async function rehearseSnapshot(ctx: CommandContext, o: SnapshotRehearsalOptions): Promise<SnapshotRehearsalResult> {
  const identity = await readIdentity(ctx.cwd);
  if (identity.buildTool !== 'maven') {
    throw new UsageError('rehearse --snapshot deploys with Maven; this is a Gradle project.', { kind: 'usage', fix: 'Rehearse the release instead (relctl rehearse without --snapshot).' });
  }
  if (!isSnapshotVersion(identity.version)) {
    throw new UsageError(`rehearse --snapshot deploys a -SNAPSHOT; the project's version is ${identity.version}.`, { kind: 'not-snapshot', fix: 'Set the version to the next X.Y.Z-SNAPSHOT and rehearse again.' });
  }
  const namespace = ctx.config.namespace ?? identity.groupId;
  const work = await makeOwnedTempDir('relctl-rehearse-snapshot-');
  const copy = path.join(work, 'project');
  const removeWork = (): Promise<void> => (o.keep ? Promise.resolve() : rm(work, { recursive: true, force: true }));
  const unregister = onInterrupt(removeWork);
  const sandbox = await startRehearsalSandbox(ctx, work, ['rehearsal'], { snapshotNamespaces: o.enabled ? [namespace] : [] });
  try {
    const { urls, user } = sandbox.accounts.get('rehearsal')!;
    const repository = `${urls.portalUrl.replace(/\/+$/, '')}/repository/maven-snapshots/`;
    await copyProject(ctx.cwd, copy);
    const baseFile = await rehearsalBaseSettings(ctx, work, o.mavenMirror);
    // The token reaches Maven through the session's environment, never a file or argv (maven-session.ts).
    const session = await openMavenSession(
      { root: copy, env: ctx.env, userSettings: baseFile, localRepo: await localRepoOfContext(ctx), token: { ...user, username: user.name, serverId }, checksums: ctx.config.checksums },
      false,
    );
    try {
      const inv = mavenSnapshotDeployInvocation(session.common, { id: serverId, url: repository }, o.skipTests ? ['-DskipTests'] : []);
      const command = displayCommand(inv.command, inv.args);
      ctx.out.info(`Deploying ${identity.groupId}:${identity.artifactId} ${identity.version} as CI does, to the sandbox's snapshot repository ${repository} (SNAPSHOTs ${o.enabled ? 'enabled' : 'not enabled, as on a new namespace'})`);
      const proc = new ProcessRunner(ctx.out, ctx.env, false, ctx.signal);
      const r = await proc.run({ command: inv.command, args: inv.args, cwd: copy, mutates: true, purpose: inv.purpose, env: session.env ?? {} });
      const result: SnapshotRehearsalResult = {
        ok: r.exitCode === 0,
        verdict: r.exitCode === 0 ? 'deployed' : 'deploy-failed',
        project: { groupId: identity.groupId, artifactId: identity.artifactId, version: identity.version },
        namespace,
        snapshotsEnabled: o.enabled,
        command,
        ...(o.keep ? { workspace: work } : {}),
      };
      // Without a namespace named, the groupId's own may be longer than the one verified (org.example for org.example.app).
      const named = ctx.config.namespace ?? `the namespace holding ${identity.groupId}`;
      if (r.exitCode !== 0) result.error = snapshotDeployFailure(r.output, named, ctx.config.portalUrl, result);
      return result;
    } finally {
      await session.dispose();
    }
  } finally {
    await sandbox.running.close();
    await removeWork();
    unregister();
  }
}

/** The sandbox's answer, decoded: a 403 from the snapshot repository is the namespace's SNAPSHOTs switch. */
function snapshotDeployFailure(output: string, namespace: string, portalUrl: string | undefined, result: SnapshotRehearsalResult): NonNullable<SnapshotRehearsalResult['error']> {
  if (/maven-snapshots\/\S*.*(status: 403|403 Forbidden)/.test(output)) {
    result.verdict = 'snapshots-disabled';
    return {
      code: 'snapshots-not-enabled',
      message: `The portal's snapshot repository refused the deploy with 403 Forbidden: SNAPSHOTs are not enabled for ${namespace} (off for every namespace until switched on), so CI's snapshot deploys would fail the same way.`,
      fix: `Enable SNAPSHOTs for ${namespace} on the portal's Namespaces page (${namespacesPage(portalUrl)}: the namespace's menu, "Enable SNAPSHOTs"); rehearse as if it were on with --snapshots-enabled.`,
    };
  }
  const errors = output.split('\n').filter((l) => l.startsWith('[ERROR]')).slice(0, 5).join('\n');
  return { code: 'snapshot-deploy-failed', message: `mvn deploy of the snapshot failed${errors === '' ? '.' : `:\n${errors}`}`, fix: `Run ${result.command} in the project to see the whole output.` };
}
