import type { NoticeKind } from './mail.js';
import type { NoticeRecord } from './notice-rule.js';

/**
 * Which lists still need a notice (DESIGN §11: each sent mail is journaled and not sent again
 * unless --resend). Pure: the journal's records come in, the recipients to send to go out. Only a
 * delivery over SMTP counts as sent; an .eml written for the person's own client does not (relctl
 * cannot know whether it was sent), nor does a record from before deliveries were journaled.
 */
export interface SendPlan {
  /** Recipients still to get the mail, in the order of the mail's To. */
  missing: string[];
  /** The first delivery to each recipient that already has the mail. */
  delivered: NoticeRecord[];
  /** The Message-ID the earlier deliveries carried: completing a half-sent mail keeps it one mail. */
  messageId?: string;
}

const same = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

export function sendPlan(records: readonly NoticeRecord[], mail: { kind: NoticeKind; version: string; to: readonly string[] }, resend: boolean): SendPlan {
  if (resend) return { missing: [...mail.to], delivered: [] };
  const sent = records.filter((r) => r.delivery === 'sent' && r.kind === mail.kind && r.version === mail.version && r.to !== undefined);
  const delivered: NoticeRecord[] = [];
  const missing: string[] = [];
  for (const to of mail.to) {
    const first = sent.find((r) => same(r.to!, to));
    if (first === undefined) missing.push(to);
    else delivered.push(first);
  }
  const messageId = delivered.find((r) => r.messageId !== undefined)?.messageId;
  return { missing, delivered, ...(messageId === undefined ? {} : { messageId }) };
}

/** "dev@x (2026-11-20), users@x (2026-11-20)": where and when the notice already went. */
export function describeDelivered(delivered: readonly { to?: string; date: string }[]): string {
  return delivered.map((r) => `${r.to} (${r.date})`).join(', ');
}
