import path from 'node:path';
import { describeDelivered } from '../../core/post-release/sent-notices.js';
import { journalDirName } from '../../io/journal.js';
import type { ReleaseContext, Step, StepDeps } from '../types.js';
import { offeredAfterPublish } from './offer.js';

/**
 * The post-release chores as chain steps (DESIGN §11): `relctl run distribute smoke image notify`.
 * Each one is skipped, with the reason, when the project does not configure it; each works on
 * the chain's version (else the journal's last release).
 */
/** The configuration's reason to skip, else (in `release`) the offer once PUBLISHED. */
async function skipUnless(reason: string | undefined, rc: Readonly<ReleaseContext>, deps: StepDeps, question: string, later: string): Promise<string | undefined> {
  return reason ?? offeredAfterPublish(rc, deps, question, later);
}

const versionOf = (version: string | undefined): { releaseVersion?: string } => (version === undefined ? {} : { releaseVersion: version });

export const distributeStep: Step = {
  id: 'distribute',
  title: 'Distribution pull request',
  skip: (rc, deps) =>
    skipUnless(deps.ctx.config.distribution?.repo === undefined ? 'no distribution.repo in relctl.config.json' : undefined, rc, deps, 'Open the distribution pull request now?', 'run relctl distribute'),
  summary: (_rc, added) => (added.pullRequestUrl === undefined ? undefined : added.pullRequestUrl),
  async run(rc, { ctx, options }) {
    const { runDistribute } = await import('../post/distribute.js');
    const result = await runDistribute(ctx, { dryRun: options.dryRun, ...versionOf(rc.version) });
    if (result.state === 'dry-run' && !ctx.out.json) ctx.out.info(result.diff);
    return result.pullRequest === undefined ? {} : { pullRequestUrl: result.pullRequest.url };
  },
};

export const smokeStep: Step = {
  id: 'smoke',
  title: 'Distribution smoke test',
  skip: (rc, deps) =>
    skipUnless(
      deps.ctx.config.distribution?.repo === undefined && deps.ctx.config.distribution?.smoke?.dir === undefined ? 'no distribution.repo or distribution.smoke.dir in relctl.config.json' : undefined,
      rc,
      deps,
      'Smoke-test the distribution (stop, clean deploy, start) now?',
      'run relctl smoke',
    ),
  summary: (_rc, added) =>
    added.smokeLog === undefined
      ? undefined
      : `healthy${added.smokeDeployed === undefined ? '' : ` with ${added.smokeDeployed}`} (log: ${added.smokeLog})${added.smokeRunning === undefined ? '' : `; still running at ${added.smokeRunning} for you to try: relctl smoke --stop ends it`}`,
  async run(rc, { ctx, proc }) {
    const { runSmoke } = await import('../post/smoke.js');
    // The chain's version: after the distribute step, smoke deploys its pull request's branch.
    // A person at a terminal gets the portal left running to try; CI, a script or --json gets it stopped after the probe.
    const stopAfter = ctx.ci || !ctx.canPrompt;
    const result = await runSmoke(ctx, proc, { snapshot: false, ...versionOf(rc.version), stopAfter });
    if (proc.dryRun) return {};
    return {
      smokeLog: result.log,
      ...(result.deployed === undefined ? {} : { smokeDeployed: `${result.deployed.property}=${result.deployed.version}` }),
      ...(result.running === undefined ? {} : { smokeRunning: result.running.healthUrl }),
    };
  },
};

export const imageStep: Step = {
  id: 'image',
  title: 'Demo image',
  skip: (rc, deps) =>
    skipUnless(deps.ctx.config.distribution?.image?.name === undefined ? 'no distribution.image.name in relctl.config.json' : undefined, rc, deps, 'Build and push the demo image now?', 'run relctl image'),
  summary: (_rc, added) => (added.imageDigest === undefined ? undefined : `the version and latest are ${added.imageDigest}`),
  async run(rc, { ctx, proc }) {
    const { runImage } = await import('../post/image.js');
    const result = await runImage(ctx, proc, versionOf(rc.version));
    return result.digest === undefined ? {} : { imageDigest: result.digest };
  },
};

export const notifyStep: Step = {
  id: 'notify',
  title: 'Release announcement',
  skip: (rc, deps) => skipUnless(deps.ctx.config.mail === undefined ? 'no mail section in relctl.config.json' : undefined, rc, deps, 'Send the release announcement now?', 'run relctl notify announce'),
  summary: (_rc, added) => (added.announced === 'sent' ? 'sent' : added.announced === 'written' ? `written to ${journalDirName}/mail (send it from your mail client)` : undefined),
  async run(rc, { ctx, options }) {
    const { runNotify } = await import('../post/notify.js');
    // With RELCTL_SMTP_URL the announcement is sent; without it, written as .eml for the person's own client.
    const smtp = ctx.env.RELCTL_SMTP_URL !== undefined && ctx.env.RELCTL_SMTP_URL !== '';
    // requirePublished takes the portal's journaled PUBLISHED (the public repository lags behind
    // it) and asks the public repository once per process. Never --resend: lists the journal says have the announcement are not sent it again.
    const common = { dryRun: options.dryRun, force: false, resend: false, ...versionOf(rc.version) };
    const result = await runNotify(ctx, {
      kind: 'announce',
      send: smtp,
      ...common,
      ...(smtp ? {} : { outputDir: path.join(ctx.cwd, journalDirName, 'mail') }),
    });
    if (result.delivery === 'already-sent') {
      ctx.out.info(`The announcement of ${result.version} already went to ${describeDelivered(result.alreadySent)}: not sent again.`);
    }
    const social = await runNotify(ctx, { kind: 'social', send: false, ...common });
    if (!ctx.out.json) ctx.out.info(`Post for the project's social account (${social.post!.length}/280):\n  ${social.post}`);
    if (result.delivery === 'written') return { announced: 'written' };
    return result.delivery === 'sent' || result.delivery === 'already-sent' ? { announced: 'sent' } : {};
  },
};
