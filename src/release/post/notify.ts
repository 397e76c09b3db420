import { UsageError } from '../../core/errors.js';
import { announceMail, prereleaseMail, socialPost, type MailLists, type MailMessage, type ReleaseFacts } from '../../core/post-release/mail.js';
import { firstDayWith, localDay } from '../../core/post-release/notice-rule.js';
import { clockNow } from '../../io/clock.js';
import type { CommandContext } from '../../io/command-context.js';
import { updateJournal } from '../../io/journal.js';
import { parseSmtpUrl, sendMails, writeEmlFiles } from '../../io/mail-transport.js';
import { resolveReleaseTarget } from '../../io/release-version.js';
import { notesText } from './notes-text.js';

export type NotifyKind = 'prerelease' | 'announce' | 'social';

export interface NotifyRequest {
  kind: NotifyKind;
  releaseVersion?: string;
  send: boolean;
  outputDir?: string;
  notesFile?: string;
  dryRun: boolean;
}

export interface NotifyResult {
  kind: NotifyKind;
  version: string;
  messages: MailMessage[];
  post?: string;
  /** What happened to the messages. */
  delivery: 'sent' | 'written' | 'preview' | 'dry-run';
  files: string[];
  smtp?: string;
}

/** The public-repository folder of the version: the link the notices carry. */
export function versionFolderUrl(publicRepoUrl: string, groupId: string, artifactId: string, version: string): string {
  return `${publicRepoUrl.replace(/\/+$/, '')}/${groupId.split('.').map(encodeURIComponent).join('/')}/${encodeURIComponent(artifactId)}/${encodeURIComponent(version)}/`;
}

function mailLists(ctx: CommandContext, kind: 'prerelease' | 'announce'): MailLists {
  const mail = ctx.config.mail ?? {};
  const missing = [mail.from === undefined ? 'mail.from' : undefined, mail.dev === undefined ? 'mail.dev' : undefined].filter((x) => x !== undefined);
  if (kind === 'announce' && mail.user === undefined) missing.push('mail.user');
  if (missing.length > 0) {
    throw new UsageError(`relctl.config.json lacks ${missing.join(', ')}: the ${kind} notice has nobody to go to.`, {
      kind: 'invalid-config',
      fix: 'Add e.g. "mail": {"from": "you@example.org", "dev": "dev-list@example.org", "user": "user-list@example.org"} to relctl.config.json.',
    });
  }
  return { from: mail.from!, dev: mail.dev!, user: mail.user ?? [], announce: mail.announce ?? [] };
}

/** `relctl notify`: compose, then send, write as .eml, or just show; journal the pre-release notice. */
export async function runNotify(ctx: CommandContext, request: NotifyRequest): Promise<NotifyResult> {
  const target = await resolveReleaseTarget(ctx.cwd, ctx.env, request.releaseVersion);
  const { identity, version } = target;
  ctx.out.verbose(`release version ${version} (from ${target.source})`);
  const notes = await notesText(ctx, { version, ...(request.notesFile === undefined ? {} : { file: request.notesFile }) });
  const facts: ReleaseFacts = {
    groupId: identity.groupId,
    artifactId: identity.artifactId,
    version,
    notes: notes.text,
    repositoryUrl: versionFolderUrl(ctx.config.publicRepoUrl, identity.groupId, identity.artifactId, version),
    ...(notes.previous === undefined ? {} : { previous: notes.previous }),
  };
  if (request.kind === 'social') return { kind: 'social', version, messages: [], post: socialPost(facts), delivery: 'preview', files: [] };

  const now = clockNow(ctx.env);
  const today = localDay(now);
  const lists = mailLists(ctx, request.kind);
  const message =
    request.kind === 'prerelease'
      ? prereleaseMail(facts, lists, firstDayWith(today, ctx.config.mail?.noticeWorkingDays ?? 2))
      : announceMail(facts, lists, today);
  const base = { kind: request.kind, version, messages: [message] };

  if (request.send) {
    const url = ctx.env.RELCTL_SMTP_URL;
    if (url === undefined || url === '') {
      throw new UsageError('--send needs RELCTL_SMTP_URL.', { fix: 'Set RELCTL_SMTP_URL=smtp://user:password@host:port, or write the mail with --output DIR and send it yourself.' });
    }
    const smtp = parseSmtpUrl(url, ctx.out.redactor);
    if (request.dryRun) {
      ctx.out.wouldDo(`send "${message.subject}" to ${message.to.join(', ')} through ${smtp.display}`);
      return { ...base, delivery: 'dry-run', files: [], smtp: smtp.display };
    }
    ctx.out.verbose(`SMTP ${smtp.display}`);
    await sendMails(smtp, [message], ctx.config.timeout * 1000);
    await journalNotice(ctx, request.kind, version, today, now);
    return { ...base, delivery: 'sent', files: [], smtp: smtp.display };
  }
  if (request.outputDir !== undefined) {
    const dir = request.outputDir;
    if (request.dryRun) {
      ctx.out.wouldDo(`write ${request.kind}-${identity.artifactId}-${version}.eml into ${dir}`);
      return { ...base, delivery: 'dry-run', files: [] };
    }
    const files = await writeEmlFiles(dir, [message], (m) => `${m.kind}-${identity.artifactId}-${version}`);
    // The person sends it from their own client now: that is the notice's date.
    await journalNotice(ctx, request.kind, version, today, now);
    return { ...base, delivery: 'written', files };
  }
  return { ...base, delivery: request.dryRun ? 'dry-run' : 'preview', files: [] };
}

async function journalNotice(ctx: CommandContext, kind: 'prerelease' | 'announce', version: string, today: string, now: Date): Promise<void> {
  await updateJournal(ctx.cwd, (j) => {
    j.notices = [...(j.notices ?? []), { kind, version, date: today, at: now.toISOString() }];
  });
}
