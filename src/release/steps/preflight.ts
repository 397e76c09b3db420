import { EnvironmentError, StepFailedError, isRelctlError } from '../../core/errors.js';
import type { OnlineSections } from '../../keys/online-types.js';
import { unansweredFix, unansweredLookups } from '../../checks/online-unanswered.js';
import { toReport } from '../../core/findings.js';
import { checks } from '../../checks/index.js';
import { runChecks } from '../../checks/run-checks.js';
import { gatherFacts } from '../../checks/gather-facts.js';
import { findingsText } from '../../ui/render/findings.js';
import { readIdentity } from '../../io/project.js';
import { DryRunStop, type Step } from '../types.js';
import { gateBudget, projectBudget } from '../publishing-budget.js';

/** The audit runs before anything changes (DESIGN §10): descriptors, repository, credentials, namespace. */
export const preflightStep: Step = {
  id: 'preflight',
  title: 'Preflight audit',
  summary: (rc) => `${rc.groupId}:${rc.artifactId} ${rc.currentVersion} (${rc.buildTool})`,
  async run(_rc, { ctx, options }) {
    const identity = await readIdentity(ctx.cwd);
    const facts = await gatherFacts(ctx, { offline: options.offline });
    const report = toReport(runChecks(checks, facts, { offline: options.offline }));
    if (report.findings.length > 0 && !ctx.out.json) ctx.out.info(findingsText(report, ctx.out.c, 'preflight'));
    const errors = report.findings.filter((f) => f.severity === 'error');
    const added = { buildTool: identity.buildTool, groupId: identity.groupId, artifactId: identity.artifactId, currentVersion: identity.version };
    // A service that gave no answer is not a pass: a real run stops with exit 3.
    // (also a parent POM the public repository did not answer for: the audit could not be completed)
    const unanswered = [...(facts.unreachable ?? []), ...(options.offline ? [] : unansweredLookups(facts.online as OnlineSections | undefined))];
    if (unanswered.length > 0) {
      const error = new EnvironmentError(unanswered.join('\n'), { kind: 'service-unreachable', fix: unansweredFix });
      throw options.dryRun ? new DryRunStop(error, added) : error;
    }
    if (errors.length > 0) {
      const error = new StepFailedError(`Preflight found ${errors.length} error${errors.length === 1 ? '' : 's'}: ${[...new Set(errors.map((f) => f.code))].join(', ')}.`, {
        kind: 'preflight-failed',
        fix: `Fix the findings listed above (each has its own fix), commit, then run \`relctl release${options.dryRun ? ' --dry-run' : ' --resume'}\`.`,
        data: { findings: errors.length },
      });
      // A dry run goes on to show the rest of the plan, saying plainly that a real run stops here.
      throw options.dryRun ? new DryRunStop(error, added) : error;
    }
    // The month's publishing budget, before the build tags anything (DESIGN §5a).
    const budget = options.budget ?? {};
    try {
      gateBudget(ctx, await projectBudget(ctx, budget), budget);
    } catch (error) {
      throw options.dryRun && isRelctlError(error) ? new DryRunStop(error, added) : error;
    }
    return added;
  },
};
