import { describe, expect, it } from 'vitest';
import type { NoticeRecord } from './notice-rule.js';
import { describeDelivered, sendPlan } from './sent-notices.js';

const lists = ['dev@example.org', 'users@example.org', 'announce@example.org'];
const announce = { kind: 'announce' as const, version: '5.1.0', to: lists };
const sent = (to: string, extra: Partial<NoticeRecord> = {}): NoticeRecord => ({
  kind: 'announce',
  version: '5.1.0',
  date: '2026-11-20',
  at: '2026-11-20T10:00:00.000Z',
  delivery: 'sent',
  to,
  messageId: '<a@example.org>',
  ...extra,
});

describe('sendPlan', () => {
  it('sends everything when nothing was sent', () => {
    expect(sendPlan([], announce, false)).toEqual({ missing: lists, delivered: [] });
  });

  it('sends only to the lists that did not get it, with the same Message-ID', () => {
    const plan = sendPlan([sent('dev@example.org')], announce, false);
    expect(plan.missing).toEqual(['users@example.org', 'announce@example.org']);
    expect(plan.delivered.map((r) => r.to)).toEqual(['dev@example.org']);
    expect(plan.messageId).toBe('<a@example.org>');
  });

  it('sends nothing again once every list has it (addresses compared without case)', () => {
    const plan = sendPlan([sent('DEV@example.org'), sent('users@example.org'), sent('announce@example.org'), sent('dev@example.org', { date: '2026-11-21' })], announce, false);
    expect(plan.missing).toEqual([]);
    expect(describeDelivered(plan.delivered)).toBe('DEV@example.org (2026-11-20), users@example.org (2026-11-20), announce@example.org (2026-11-20)');
  });

  it('an .eml written, another kind or version, or an old record without a delivery is not a sent mail', () => {
    const records: NoticeRecord[] = [
      sent('dev@example.org', { delivery: 'written' }),
      sent('dev@example.org', { kind: 'prerelease' }),
      sent('dev@example.org', { version: '5.0.0' }),
      { kind: 'announce', version: '5.1.0', date: '2026-11-20', at: '2026-11-20T10:00:00Z' },
    ];
    expect(sendPlan(records, announce, false).missing).toEqual(lists);
  });

  it('--resend sends to every list again', () => {
    const plan = sendPlan(lists.map((l) => sent(l)), announce, true);
    expect(plan).toEqual({ missing: lists, delivered: [] });
  });
});
