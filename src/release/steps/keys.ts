import { EnvironmentError, StepFailedError, isRelctlError } from '../../core/errors.js';
import { toReport } from '../../core/findings.js';
import { keyFindings, keyLookupErrors } from '../../checks/online-keys.js';
import { gatherKeyFacts } from '../../keys/check.js';
import { resolveSigningKey, signingKeyInput } from '../../keys/fingerprint.js';
import { httpFor, keyServersFor } from '../../portal/session.js';
import { findingsText } from '../../ui/render/findings.js';
import { DryRunStop, type Step } from '../types.js';

/**
 * `relctl keys check` as a step (DESIGN §10: the key is checked before anything changes): on the
 * primary key server, confirmed, unexpired, not only on a secondary. Hands the fingerprint on,
 * so the build warms the agent with the same key.
 */
export const keysStep: Step = {
  id: 'keys',
  title: 'Signing key check',
  skip: (_rc, { options }) => (options.offline ? '--offline: the key servers are not asked' : undefined),
  summary: (rc) => rc.fingerprint,
  async run(_rc, { ctx, options }) {
    const key = await resolveSigningKey(signingKeyInput(ctx)).catch((error: unknown) => {
      // A dry run works without a key (DESIGN §10); it says what a real run would do.
      throw options.dryRun && isRelctlError(error) ? new DryRunStop(error) : error;
    });
    const http = httpFor(ctx);
    try {
      const facts = await gatherKeyFacts(key, keyServersFor(ctx, http), ctx.config);
      const unanswered = keyLookupErrors(facts);
      if (unanswered.length > 0) {
        throw new EnvironmentError(`The ${unanswered.map((e) => e.replace(/\.+$/, '')).join('; the ')}.`, {
          kind: 'keyserver-unavailable',
          fix: 'Check the network and --keyserver-url / --secondary-keyserver-url, then run `relctl release --resume`.',
        });
      }
      const report = toReport(keyFindings(facts));
      if (report.findings.length > 0 && !ctx.out.json) ctx.out.info(findingsText(report, ctx.out.c, 'keys check'));
      if (!report.ok) {
        const codes = [...new Set(report.findings.filter((f) => f.severity === 'error').map((f) => f.code))];
        const error = new StepFailedError(`The signing key ${key.fingerprint} is not ready for a release: ${codes.join(', ')}.`, {
          kind: 'key-not-ready',
          fix: 'Follow the fix of each finding above, then run `relctl release --resume`.',
          data: { fingerprint: key.fingerprint },
        });
        throw options.dryRun ? new DryRunStop(error, { fingerprint: key.fingerprint }) : error;
      }
      return { fingerprint: key.fingerprint };
    } finally {
      await http.close();
    }
  },
};
