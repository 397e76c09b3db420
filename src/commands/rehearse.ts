import { ExitCode, UsageError } from '../core/errors.js';
import { isProjectCause } from '../core/build-failures/project-cause.js';
import { findingToJson } from '../core/findings.js';
import { chosenVersions, nextVersionArgument, releaseVersionArgument } from '../release/options.js';
import { rehearse, type RehearsalResult } from '../release/rehearse/run.js';
import type { SnapshotRehearsalResult } from '../release/rehearse/snapshot-deploy.js';
import { rehearsalFlags, rehearsalOptions } from './rehearse-options.js';
import type { CommandContext } from '../io/command-context.js';
import type { Define } from './define.js';

export const define: Define = (program, action) => {
  rehearsalOptions(program.command('rehearse').description("the release against an embedded sandbox in a throwaway copy: the portal's verdict without touching git or the real portal"))
    .option('--keep', 'keep the throwaway copy (its path is printed)')
    .option('--usage <file>', "the Usage Center's export (CSV, Current Month): the organization's publishing usage the budget line counts")
    .option('--staging-dir <folder>', 'Gradle: the Maven-layout folder the build published (default: build/staging-deploy, build/repo or build/m2)')
    .option('--snapshot', "deploy the project's -SNAPSHOT as CI does (mvn deploy) to the sandbox's snapshot repository, SNAPSHOTs off as on a new namespace")
    .option('--snapshots-enabled', 'with --snapshot: rehearse as if SNAPSHOTs were enabled for the namespace on the portal')
    .option('--post-release', "with --publish: then notes, distribute and notify against the sandbox's GitHub and SMTP stand-ins")
    .option('--release-version <X>', 'rehearse releasing X, as relctl release --release-version would', releaseVersionArgument)
    .option('--next-version <Y-SNAPSHOT>', 'the development version after it, as relctl release --next-version would', nextVersionArgument)
    .action(
      action(async (ctx, opts) => {
        if (opts.postRelease === true && opts.publish !== true) {
          throw new UsageError('--post-release rehearses what follows a publication.', { fix: 'Add --publish.' });
        }
        if (opts.snapshotsEnabled === true && opts.snapshot !== true) {
          throw new UsageError('--snapshots-enabled says how the snapshot rehearsal\'s sandbox behaves.', { fix: 'Add --snapshot.' });
        }
        if (opts.snapshot === true) {
          const { rehearseSnapshot } = await import('../release/rehearse/snapshot-deploy.js');
          const flags = rehearsalFlags(opts);
          const snap = await rehearseSnapshot(ctx, {
            enabled: opts.snapshotsEnabled === true,
            skipTests: flags.skipTests === true,
            keep: opts.keep === true,
            ...(flags.mavenMirror === undefined ? {} : { mavenMirror: flags.mavenMirror }),
          });
          renderSnapshot(ctx, snap);
          return snap.ok ? ExitCode.ok : ExitCode.failed;
        }
        const versions = chosenVersions(opts);
        const result = await rehearse(ctx, {
          ...rehearsalFlags(opts),
          ...(typeof opts.usage === 'string' ? { usage: opts.usage } : {}),
          ...(versions === undefined ? {} : { versions }),
          keep: opts.keep === true,
          ...(typeof opts.stagingDir === 'string' ? { stagingDir: opts.stagingDir } : {}),
          postRelease: opts.postRelease === true,
        });
        render(ctx, result);
        return result.ok ? ExitCode.ok : ExitCode.failed;
      }),
    );
};

const verdicts: Record<RehearsalResult['verdict'], string> = {
  VALIDATED: 'The portal would accept this release: VALIDATED, waiting for a person to review and publish.',
  PUBLISHED: 'The portal accepted and published this release (in the sandbox).',
  FAILED: 'The portal would FAIL this release and block the namespace until the deployment is dropped.',
  'verify-failed': 'The portal would fail this release: relctl stopped before the upload, so nothing is blocked.',
  'build-failed': 'The release build failed before anything was deployed.',
  'deploy-failed': 'The build could not deploy to the staging API.',
  pending: 'The portal had not decided when the wait ran out (not a failure).',
  error: 'The rehearsal could not finish.',
};

function render(ctx: CommandContext, r: RehearsalResult): void {
  if (ctx.out.json) {
    ctx.out.resultJson({ ...r, preflight: { ...r.preflight, findings: r.preflight.findings.map(findingToJson) } });
    return;
  }
  const lines = [`Rehearsal of ${r.project.groupId}:${r.project.artifactId} ${r.project.version} (tag ${r.project.tag}); nothing real was touched.`];
  lines.push(`  preflight  ${r.preflight.errors} error(s), ${r.preflight.warnings} warning(s)${r.preflight.errors > 0 ? ` (${[...new Set(r.preflight.findings.filter((f) => f.severity === 'error').map((f) => f.code))].join(', ')}: a real release stops here)` : ''}`);
  lines.push(`  signing    ${r.signing.fingerprint ?? 'no key'}${r.signing.throwaway ? ' (throwaway key)' : ''}`);
  lines.push(...buildLines(r));
  for (const s of r.chain?.steps ?? []) lines.push(`  ${s.id.padEnd(10)} ${s.status}`);
  if (r.deploymentId !== undefined) lines.push(`deploymentId: ${r.deploymentId}`);
  for (const f of r.fetched ?? []) lines.push(`fetched back: ${f.file} (${f.bytes} bytes, ${f.matchesBuild ? 'identical to the build' : 'DIFFERS from the build'})`);
  for (const s of r.postRelease?.steps ?? []) lines.push(`  ${s.id.padEnd(10)} ${s.status}${s.status === 'skipped' ? ` (${s.reason})` : ''}`);
  if (r.postRelease?.error !== undefined) lines.push(`post-release: ${r.postRelease.error.message}`);
  if (r.workspace !== undefined) lines.push(`workspace kept: ${r.workspace}`);
  // Only a cause of the project's own (its tests, JDK, plugins) says anything about the real release.
  lines.push(r.verdict === 'build-failed' && isProjectCause(r.build?.failure?.cause) ? `${verdicts[r.verdict]} A real release on this machine stops there too.` : verdicts[r.verdict]);
  if (r.error !== undefined) {
    lines.push(`cause: ${r.error.message}`);
    if (r.error.fix !== undefined) lines.push(`fix: ${r.error.fix}`);
  }
  ctx.out.result(lines.join('\n'));
}

function renderSnapshot(ctx: CommandContext, r: SnapshotRehearsalResult): void {
  if (ctx.out.json) {
    ctx.out.resultJson(r);
    return;
  }
  const lines = [`Snapshot rehearsal of ${r.project.groupId}:${r.project.artifactId} ${r.project.version} (namespace ${r.namespace}, SNAPSHOTs ${r.snapshotsEnabled ? 'enabled' : 'not enabled'}); nothing real was touched.`];
  lines.push(`  deploy     ${r.command}`);
  if (r.workspace !== undefined) lines.push(`workspace kept: ${r.workspace}`);
  lines.push(r.ok ? "The portal's snapshot repository took the snapshot, as CI's deploy would be taken." : `The snapshot deploy failed (${r.error?.code ?? 'unknown'}).`);
  if (r.error !== undefined) lines.push(`cause: ${r.error.message}`, `fix: ${r.error.fix}`);
  ctx.out.result(lines.join('\n'));
}

/** How the copy was built: each note, the commands that ran, the redirect, and a failure as it can be run by hand. */
function buildLines(r: RehearsalResult): string[] {
  const b = r.build;
  if (b === undefined) return [];
  const lines = b.notes.map((n) => `  note       ${n}`);
  for (const c of b.commands) lines.push(`  build      ${c}`);
  if (b.redirect.length > 0) lines.push(`  redirect   MAVEN_OPTS ${b.redirect.join(' ')}${b.javaHome === undefined ? '' : `, JAVA_HOME=${b.javaHome}`}`);
  if (b.parents.length > 0) lines.push(`  parents    ${b.parents.length} parent POM(s) in the sandbox's public repository: ${b.parents.map((p) => p.split('/').slice(-1)[0]).join(', ')}`);
  const f = b.failure;
  if (f === undefined) return lines;
  lines.push(`  failed in  ${f.command}`);
  if (f.forked !== undefined) lines.push(`  which ran  ${f.forked.command}  (the build release:prepare/perform started; run it by hand in your project)`);
  for (const e of f.errors.slice(0, 5)) lines.push(`  [ERROR] ${e}`);
  return lines;
}
