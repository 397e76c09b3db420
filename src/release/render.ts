import type { CommandContext } from '../io/command-context.js';
import { ExitCode } from '../core/errors.js';
import type { ChainSummary } from './runner.js';

/** The one result of a chain: a step table and the ids (DESIGN §10: always print the ids). */
export function renderSummary(ctx: CommandContext, summary: ChainSummary, heading: string): number {
  if (ctx.out.json) {
    ctx.out.resultJson(summary);
    return summary.ok ? ExitCode.ok : ExitCode.failed;
  }
  const rc = summary.context;
  const lines: string[] = [`${heading}${summary.dryRun ? ' (dry run: nothing was changed)' : ''}`];
  if (summary.dryRun) {
    // The plan is the step lines above; the result says only where a real run would stop.
    for (const s of summary.steps) {
      if (s.status === 'would-stop') lines.push(`  a real run would stop at ${s.id}: ${s.error.message}${s.error.fix === undefined ? '' : `\n    fix: ${s.error.fix}`}`);
    }
    if (summary.ok) lines.push('  nothing in the plan above would stop a real run');
  }
  for (const s of summary.dryRun ? [] : summary.steps) {
    const note = s.status === 'skipped' ? ` (${s.reason})` : s.status === 'done' ? ` (${(s.ms / 1000).toFixed(1)} s)` : '';
    lines.push(`  ${s.id.padEnd(10)} ${s.status}${note}`);
  }
  if (rc.version !== undefined) lines.push(`version: ${rc.version} (tag ${rc.tag}, next ${rc.nextVersion})`);
  if (rc.skippedVersions !== undefined && rc.skippedVersions.length > 0) {
    lines.push(`skipped (prepared but not published; say so in the release notes): ${rc.skippedVersions.join(', ')}`);
  }
  if (rc.repositoryKey !== undefined) lines.push(`repositoryKey: ${rc.repositoryKey}`);
  if (rc.deploymentId !== undefined) lines.push(`deploymentId: ${rc.deploymentId}`);
  if (rc.deploymentState !== undefined) lines.push(`state: ${rc.deploymentState}`);
  if (rc.pullRequestUrl !== undefined) lines.push(`distribution pull request: ${rc.pullRequestUrl}`);
  if (rc.imageDigest !== undefined) lines.push(`image digest: ${rc.imageDigest}`);
  if (rc.deploymentState === 'PUBLISHED' && rc.announced === undefined) lines.push('next: the post-release chores: relctl run distribute smoke image notify');
  if (rc.deploymentState === 'VALIDATED') lines.push(`next: review and publish at ${rc.deploymentsUrl} (or relctl publish --deployment ${rc.deploymentId})`);
  else if (rc.deploymentState !== undefined && rc.deploymentState !== 'PUBLISHED') {
    lines.push(`next: relctl status --deployment ${rc.deploymentId} --wait`);
  }
  ctx.out.result(lines.join('\n'));
  return summary.ok ? ExitCode.ok : ExitCode.failed;
}
