import path from 'node:path';
import { UsageError } from '../core/errors.js';
import { describeDelivered } from '../core/post-release/sent-notices.js';
import type { CommandContext } from '../io/command-context.js';
import type { NotifyKind, NotifyResult } from '../release/post/notify.js';
import { Option } from './commander.js';
import type { Define } from './define.js';
import { releaseVersionOption } from './release-version-option.js';

// The kinds, here so that --help and a bad kind need not load the mail code.
const notifyKinds: readonly NotifyKind[] = ['prerelease', 'announce', 'social'];

export const define: Define = (program, action) => {
  program
    .command('notify')
    .description('pre-release notice and announcement mails (SMTP or .eml files); social: a post of at most 280 characters')
    .argument('<kind>', 'prerelease, announce or social')
    .addOption(releaseVersionOption())
    .option('--send', 'send through RELCTL_SMTP_URL (smtp://user:password@host:port); lists that already got it (journal) are skipped')
    .addOption(new Option('--output <dir>', 'write the mail as an .eml file into this folder, to send from your own client').conflicts('send'))
    .option('--notes <file>', 'release notes to include (default: the notes of relctl notes)')
    .option('--resend', 'send (or write) again a mail the journal says already went to every list')
    .option('--force', 'announce a version the public repository does not have (announce, social)')
    .option('--dry-run', 'show what would be sent or written; send and write nothing')
    .option('--yes', 'no prompts (notify asks none; accepted for the chain contract)')
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
          force: opts.force === true,
          resend: opts.resend === true,
          ...(typeof opts.releaseVersion === 'string' ? { releaseVersion: opts.releaseVersion } : {}),
          ...(typeof opts.output === 'string' ? { outputDir: path.resolve(ctx.cwd, opts.output) } : {}),
          ...(typeof opts.notes === 'string' ? { notesFile: opts.notes } : {}),
        });
        if (ctx.out.json) ctx.out.resultJson({ ok: true, dryRun: opts.dryRun === true, ...result });
        else render(ctx, result, opts.output === undefined ? '--send' : '--output');
      }),
    );
};

function render(ctx: CommandContext, result: NotifyResult, how: string): void {
  if (result.post !== undefined) {
    ctx.out.result(result.post);
    ctx.out.info(`${result.post.length}/280 characters: for the person who holds the project's social account.`);
    return;
  }
  const m = result.messages[0]!;
  switch (result.delivery) {
    case 'already-sent':
      ctx.out.result(`"${m.subject}" already went to ${describeDelivered(result.alreadySent)} (journal): not sent again; ${how} --resend sends it again`);
      return;
    case 'sent':
      ctx.out.result(`sent "${m.subject}" to ${result.sentTo.join(', ')} through ${result.smtp}`);
      break;
    case 'written':
      ctx.out.result(`wrote ${result.files.join(', ')}: open it in your mail client and send it`);
      break;
    default:
      ctx.out.result([`From: ${m.from}`, `To: ${m.to.join(', ')}`, `Subject: ${m.subject}`, '', m.text].join('\n'));
      if (result.delivery === 'preview') ctx.out.info('Not sent: pass --send (RELCTL_SMTP_URL) or --output DIR.');
  }
  if (result.kind === 'prerelease' && (result.delivery === 'sent' || result.delivery === 'written')) {
    ctx.out.info(`Recorded in the journal: preflight and release check it is ${ctx.config.mail?.noticeWorkingDays ?? 2} working days old before ${result.version}.`);
  }
}
