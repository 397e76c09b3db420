import path from 'node:path';
import { UsageError } from '../core/errors.js';
import type { NotifyKind } from '../release/post/notify.js';
import { Option } from './commander.js';
import type { Define } from './registry.js';

// The kinds, here so that --help and a bad kind need not load the mail code.
const notifyKinds: readonly NotifyKind[] = ['prerelease', 'announce', 'social'];

export const define: Define = (program, action) => {
  program
    .command('notify')
    .description('pre-release notice and announcement mails (SMTP or .eml files); social: a post of at most 280 characters')
    .argument('<kind>', 'prerelease, announce or social')
    .option('--release-version <X.Y.Z>', "the released version (default: the journal's last release, else the newest release tag)")
    .option('--send', 'send through RELCTL_SMTP_URL (smtp://user:password@host:port)')
    .addOption(new Option('--output <dir>', 'write the mail as an .eml file into this folder, to send from your own client').conflicts('send'))
    .option('--notes <file>', 'release notes to include (default: the commit subjects since the previous release)')
    .option('--dry-run', 'show what would be sent or written; send and write nothing')
    .action(
      action(async (ctx, opts, args) => {
        const kind = args[0] as NotifyKind;
        if (!notifyKinds.includes(kind)) {
          throw new UsageError(`notify ${String(kind)}: unknown kind.`, { fix: `Use one of: ${notifyKinds.join(', ')}.` });
        }
        if (kind === 'social' && (opts.send === true || opts.output !== undefined)) {
          throw new UsageError('notify social only prints the post.', { fix: 'Drop --send/--output; the person holding the social account posts it.' });
        }
        const { runNotify } = await import('../release/post/notify.js');
        const result = await runNotify(ctx, {
          kind,
          send: opts.send === true,
          dryRun: opts.dryRun === true,
          ...(typeof opts.releaseVersion === 'string' ? { releaseVersion: opts.releaseVersion } : {}),
          ...(typeof opts.output === 'string' ? { outputDir: path.resolve(ctx.cwd, opts.output) } : {}),
          ...(typeof opts.notes === 'string' ? { notesFile: opts.notes } : {}),
        });
        if (ctx.out.json) {
          ctx.out.resultJson({ ok: true, dryRun: opts.dryRun === true, ...result });
          return;
        }
        if (result.post !== undefined) {
          ctx.out.result(result.post);
          ctx.out.info(`${result.post.length}/280 characters: for the person who holds the project's social account.`);
          return;
        }
        const m = result.messages[0]!;
        if (result.delivery === 'sent') ctx.out.result(`sent "${m.subject}" to ${m.to.join(', ')} through ${result.smtp}`);
        else if (result.delivery === 'written') ctx.out.result(`wrote ${result.files.join(', ')}: open it in your mail client and send it`);
        else {
          ctx.out.result([`From: ${m.from}`, `To: ${m.to.join(', ')}`, `Subject: ${m.subject}`, '', m.text].join('\n'));
          if (result.delivery === 'preview') ctx.out.info('Not sent: pass --send (RELCTL_SMTP_URL) or --output DIR.');
        }
        if (kind === 'prerelease' && (result.delivery === 'sent' || result.delivery === 'written')) {
          ctx.out.info(`Recorded in the journal: preflight and release check it is ${ctx.config.mail?.noticeWorkingDays ?? 2} working days old before ${result.version}.`);
        }
      }),
    );
};
