import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { UsageError } from '../../core/errors.js';
import { announceMail, prereleaseMail, publicRepositoryName, socialPost, type MailLists, type MailMessage, type ReleaseFacts } from '../../core/post-release/mail.js';
import { firstDayWith, localDay, type NoticeRecord } from '../../core/post-release/notice-rule.js';
import { describeDelivered, sendPlan } from '../../core/post-release/sent-notices.js';
import type { Redactor } from '../../core/redact.js';
import { clockNow } from '../../io/clock.js';
import type { CommandContext } from '../../io/command-context.js';
import { readJournal, updateJournal } from '../../io/journal.js';
import { checkOutputDir, parseSmtpUrl, sendMail, writeEmlFiles, type SmtpTarget } from '../../io/mail-transport.js';
import { requirePublished, resolveReleaseTarget } from '../../io/release-version.js';
import { notesText } from './notes-text.js';

export type NotifyKind = 'prerelease' | 'announce' | 'social';

export interface NotifyRequest {
  kind: NotifyKind;
  releaseVersion?: string;
  send: boolean;
  outputDir?: string;
  notesFile?: string;
  dryRun: boolean;
  /** Go on with a version the public repository does not have (announce, social). */
  force: boolean;
  /** Send (or write) again what the journal says already went out. */
  resend: boolean;
}

export interface NotifyResult {
  kind: NotifyKind;
  version: string;
  messages: MailMessage[];
  post?: string;
  /** What happened to the messages. already-sent: the journal shows every list has it; nothing done. */
  delivery: 'sent' | 'written' | 'preview' | 'dry-run' | 'already-sent';
  files: string[];
  smtp?: string;
  /** The lists this run delivered to (in a dry run: would deliver to). */
  sentTo: string[];
  /** The lists that already had the mail (journal), with the day it went: not sent again. */
  alreadySent: { to: string; date: string }[];
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

/** RELCTL_SMTP_URL, read before any other work: a missing or malformed one is exit 2 at once. */
function smtpTarget(ctx: CommandContext): SmtpTarget {
  const url = ctx.env.RELCTL_SMTP_URL;
  if (url === undefined || url === '') {
    throw new UsageError('--send needs RELCTL_SMTP_URL.', { fix: 'Set RELCTL_SMTP_URL=smtp://user:password@host:port, or write the mail with --output DIR and send it yourself.' });
  }
  return parseSmtpUrl(url, ctx.out.redactor);
}

/** A path as the user would write it: relative when inside the project. */
function shownPath(cwd: string, file: string): string {
  const relative = path.relative(cwd, file);
  return relative === '' || relative.startsWith('..') || path.isAbsolute(relative) ? file : relative;
}

/** A secret that found its way into a commit subject or a notes file never goes out in a mail. */
function redactMessage(m: MailMessage, redactor: Redactor): MailMessage {
  return { ...m, subject: redactor.redact(m.subject), text: redactor.redact(m.text) };
}

/** `relctl notify`: compose, then send, write as .eml, or just show; journal what went out. */
export async function runNotify(ctx: CommandContext, request: NotifyRequest): Promise<NotifyResult> {
  if (request.outputDir !== undefined) await checkOutputDir(request.outputDir, shownPath(ctx.cwd, request.outputDir));
  const smtp = request.send ? smtpTarget(ctx) : undefined;
  const target = await resolveReleaseTarget(ctx.cwd, ctx.env, request.releaseVersion);
  const { identity, version } = target;
  ctx.out.verbose(`release version ${version} (from ${target.source})`);
  // The pre-release notice comes before the release; everything else speaks of a released version.
  if (request.kind !== 'prerelease') {
    await requirePublished(ctx, target, { force: request.force, dryRun: request.dryRun, what: request.kind === 'social' ? 'a social post' : 'the announcement' });
  }
  const notes = await notesText(ctx, { version, ...(request.notesFile === undefined ? {} : { file: request.notesFile }) });
  const facts: ReleaseFacts = {
    groupId: identity.groupId,
    artifactId: identity.artifactId,
    version,
    notes: notes.text,
    repositoryUrl: versionFolderUrl(ctx.config.publicRepoUrl, identity.groupId, identity.artifactId, version),
    publishedOn: publicRepositoryName(ctx.config.publicRepoUrl),
    ...(notes.previous === undefined ? {} : { previous: notes.previous }),
  };
  const none = { files: [], sentTo: [], alreadySent: [] };
  if (request.kind === 'social') return { kind: 'social', version, messages: [], post: ctx.out.redactor.redact(socialPost(facts)), delivery: 'preview', ...none };

  const kind = request.kind;
  const now = clockNow(ctx.env);
  const today = localDay(now);
  const lists = mailLists(ctx, kind);
  const composed =
    kind === 'prerelease'
      ? prereleaseMail(facts, lists, firstDayWith(today, ctx.config.mail?.noticeWorkingDays ?? 2))
      : announceMail(facts, lists, today);
  const message = redactMessage(composed, ctx.out.redactor);
  const base = { kind, version, messages: [message] };
  if (smtp === undefined && request.outputDir === undefined) return { ...base, delivery: request.dryRun ? 'dry-run' : 'preview', ...none };

  const plan = sendPlan((await readJournal(ctx.cwd)).notices ?? [], { kind, version, to: message.to }, request.resend);
  const alreadySent = plan.delivered.map((r) => ({ to: r.to!, date: r.date }));
  const through = smtp === undefined ? {} : { smtp: smtp.display };
  if (plan.missing.length === 0) return { ...base, delivery: 'already-sent', files: [], sentTo: [], alreadySent, ...through };
  if (plan.delivered.length > 0) {
    const already = `Already sent to ${describeDelivered(plan.delivered)} (journal)`;
    ctx.out.info(smtp === undefined ? `${already}: the .eml names every list; send it to the others only.` : `${already}: not sent there again.`);
  }
  const record = (extra: Partial<NoticeRecord>): Promise<void> => journalNotice(ctx, { kind, version, date: today, at: now.toISOString(), ...extra });

  if (smtp !== undefined) {
    if (request.dryRun) {
      ctx.out.wouldDo(`send "${message.subject}" to ${plan.missing.join(', ')} through ${smtp.display}`);
      return { ...base, delivery: 'dry-run', files: [], sentTo: plan.missing, alreadySent, ...through };
    }
    ctx.out.verbose(`SMTP ${smtp.display}`);
    const messageId = plan.messageId ?? `<relctl.${randomUUID()}@${message.from.split('@')[1] ?? 'localhost'}>`;
    await sendMail(smtp, message, plan.missing, {
      messageId,
      timeoutMs: ctx.config.timeout * 1000,
      onDelivered: (d) => record({ delivery: 'sent', to: d.to, messageId: d.messageId }),
    });
    return { ...base, delivery: 'sent', files: [], sentTo: plan.missing, alreadySent, ...through };
  }
  const dir = request.outputDir!;
  const fileBase = `${kind}-${identity.artifactId}-${version}`;
  if (request.dryRun) {
    ctx.out.wouldDo(`write ${fileBase}.eml into ${dir}`);
    return { ...base, delivery: 'dry-run', files: [], sentTo: [], alreadySent };
  }
  const files = await writeEmlFiles(dir, [message], () => fileBase, (t) => ctx.out.redactor.redact(t));
  // The person sends it from their own client now: that is the notice's date (not a sent mail:
  // a later --send still sends it).
  await record({ delivery: 'written' });
  return { ...base, delivery: 'written', files, sentTo: [], alreadySent };
}

async function journalNotice(ctx: CommandContext, notice: NoticeRecord): Promise<void> {
  await updateJournal(ctx.cwd, (j) => {
    j.notices = [...(j.notices ?? []), notice];
  });
}
