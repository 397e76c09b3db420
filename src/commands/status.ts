import { ExitCode } from '../core/errors.js';
import { perCommandOption } from '../core/config/settings.js';
import { findingToJson, toReport } from '../core/findings.js';
import { deploymentsUrl } from '../portal/decode.js';
import { resolveDeploymentId, settledStates, stateMeaning, statusFindings, waitForDeployment } from '../portal/deployment.js';
import { portalSession } from '../portal/session.js';
import { findingsText } from '../ui/render/findings.js';
import type { Define } from './define.js';
import { notePublished } from '../release/publishing-budget.js';
import { InvalidArgumentError, Option } from './commander.js';

/** --wait-timeout: a number of seconds, 0 or more (0: one look, no waiting). */
function waitSeconds(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0) throw new InvalidArgumentError(`${JSON.stringify(value)} is not a number of seconds; e.g. --wait-timeout 600.`);
  return n;
}

export const define: Define = (program, action) => {
  program
    .command('status')
    .description("the portal deployment's state (Publisher API); --wait polls until it settles")
    .option('--deployment <id>', 'deployment id (default: the release journal, else the latest found for --namespace or --group-id)')
    .option(...perCommandOption('namespace'))
    .option('--wait', 'poll with backoff until VALIDATED, PUBLISHED or FAILED')
    // A number (not the string "600"), so --help says `(default: 600 seconds)`.
    .addOption(new Option('--wait-timeout <seconds>', 'time limit of --wait').default(600, '600 seconds').argParser(waitSeconds))
    .action(
      action(async (ctx, opts) => {
        const limit = opts.waitTimeout as number;
        const { portal } = await portalSession(ctx);
        const id = await resolveDeploymentId(ctx, portal, opts.deployment);
        const { status, settled } =
          opts.wait === true
            ? await waitForDeployment(portal, id, { timeoutMs: limit * 1000, signal: ctx.signal, onState: (s) => ctx.out.info(`${id}: ${s}`) })
            : { status: await portal.status(id), settled: true };
        const state = status.deploymentState;
        await notePublished(ctx, status);
        const m = stateMeaning(state, id);
        const findings = statusFindings(status, ctx.config.portalUrl);
        const timedOut = opts.wait === true && !settled;
        if (ctx.out.json) {
          ctx.out.resultJson({
            ok: state !== 'FAILED',
            deploymentId: id,
            deploymentName: status.deploymentName ?? null,
            state,
            settled: opts.wait === true ? settled : settledStates.has(state),
            timedOut,
            actionRequired: state === 'VALIDATED' ? 'publish' : state === 'FAILED' ? 'drop' : null,
            purls: status.purls,
            deploymentsUrl: deploymentsUrl(ctx.config.portalUrl),
            next: m.next ?? null,
            findings: toReport(findings).findings.map(findingToJson),
          });
        } else {
          const lines = [`deployment ${id}: ${state}`, `  ${m.text}`];
          if (status.deploymentName !== undefined) lines.push(`  name: ${status.deploymentName}`);
          for (const purl of status.purls) lines.push(`  ${purl}`);
          if (findings.length > 0) lines.push('', findingsText(toReport(findings), ctx.out.c, 'portal validation'));
          ctx.out.result(lines.join('\n'));
          if (timedOut) {
            ctx.out.warn(`The wait ran out after ${limit} s while the deployment is ${state}; this is not a failure. Check again with: relctl status --deployment ${id} --wait`);
          } else if (m.next !== undefined) {
            ctx.out.info(`next: ${m.next} (or at ${deploymentsUrl(ctx.config.portalUrl)})`);
          }
        }
        // A wait that runs out is not a failure (DESIGN §10); only FAILED is.
        return state === 'FAILED' ? ExitCode.failed : ExitCode.ok;
      }),
    );
};
