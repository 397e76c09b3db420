import { EnvironmentError, StepFailedError } from '../../core/errors.js';
import { toReport } from '../../core/findings.js';
import { checks } from '../../checks/index.js';
import { runChecks } from '../../checks/run-checks.js';
import { gatherFacts } from '../../io/gather-facts.js';
import { findingsText } from '../../ui/render/findings.js';
import { readIdentity } from '../../io/project.js';
import type { Step } from '../types.js';

/** The audit runs before anything changes (DESIGN §10): descriptors, repository, credentials, namespace. */
export const preflightStep: Step = {
  id: 'preflight',
  title: 'Preflight audit',
  summary: (rc) => `${rc.groupId}:${rc.artifactId} ${rc.currentVersion} (${rc.buildTool})`,
  async run(_rc, { ctx, options }) {
    const identity = await readIdentity(ctx.cwd);
    const facts = await gatherFacts(ctx, { offline: options.offline });
    // A parent POM the public repository did not answer for: the audit could not be completed.
    if (facts.unreachable !== undefined && facts.unreachable.length > 0) {
      throw new EnvironmentError(facts.unreachable.join(' '), {
        kind: 'unreachable',
        fix: 'Check the network and --public-repo-url, then run `relctl release --resume` (--offline skips the online lookups).',
      });
    }
    const report = toReport(runChecks(checks, facts, { offline: options.offline }));
    if (report.findings.length > 0 && !ctx.out.json) ctx.out.info(findingsText(report, ctx.out.c, 'preflight'));
    const errors = report.findings.filter((f) => f.severity === 'error');
    if (errors.length > 0) {
      if (options.dryRun) {
        ctx.out.warn(`preflight found ${errors.length} error(s); a real run would stop here.`);
      } else {
        throw new StepFailedError(`Preflight found ${errors.length} error${errors.length === 1 ? '' : 's'}: ${[...new Set(errors.map((f) => f.code))].join(', ')}.`, {
          kind: 'preflight-failed',
          fix: 'Fix the findings listed above (each has its own fix), commit, then run `relctl release --resume`.',
          data: { findings: errors.length },
        });
      }
    }
    return { buildTool: identity.buildTool, groupId: identity.groupId, artifactId: identity.artifactId, currentVersion: identity.version };
  },
};
