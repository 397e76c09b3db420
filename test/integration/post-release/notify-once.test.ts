import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allLists, lists, notifyFixture, type NotifyFixture } from './notify-fixture.js';

// DESIGN §11: each sent mail (kind, version, list) is journaled and not sent again unless --resend.
let f: NotifyFixture;
const subject = '[ANN] notification-portlet 5.1.0 released';

beforeAll(async () => {
  f = await notifyFixture({ smtpPassword: 'smtp-once-pass' });
});
afterAll(async () => {
  await f?.[Symbol.asyncDispose]();
});

const announcements = async (): Promise<string[]> => (await f.mailbox()).filter((m) => m.subject === subject).flatMap((m) => m.rcpt);
const journalNotices = async (): Promise<{ kind: string; version: string; delivery?: string; to?: string; messageId?: string }[]> =>
  (JSON.parse(await readFile(path.join(f.project, '.relctl', 'journal.json'), 'utf8')) as { notices: [] }).notices;

describe('notify sends each mail once per list', () => {
  it('a second --send says it was sent, exits 0 and delivers nothing; --resend delivers again', async () => {
    const first = await f.relctl(['notify', 'announce', '--release-version', '5.1.0', '--send', '--yes']);
    expect(first.exitCode, first.stderr).toBe(0);
    expect(await announcements()).toEqual(allLists);
    const mails = (await f.mailbox()).filter((m) => m.subject === subject);
    // One mail delivered list by list: every copy names every list and carries one Message-ID.
    expect(mails.map((m) => m.to)).toEqual([allLists, allLists, allLists]);
    expect(new Set(mails.map((m) => m.messageId)).size).toBe(1);
    const records = (await journalNotices()).filter((n) => n.kind === 'announce');
    expect(records.map((n) => `${n.version} ${n.delivery} ${n.to}`)).toEqual(allLists.map((l) => `5.1.0 sent ${l}`));
    expect(records[0]!.messageId).toBe(mails[0]!.messageId);

    const again = await f.relctl(['notify', 'announce', '--release-version', '5.1.0', '--send']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stdout).toContain(`"${subject}" already went to ${lists.dev} (`);
    expect(again.stdout).toContain('not sent again; --send --resend sends it again');
    expect(await announcements()).toEqual(allLists);

    const json = await f.relctl(['notify', 'announce', '--release-version', '5.1.0', '--send', '--json']);
    expect(json.exitCode).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: true, delivery: 'already-sent', sentTo: [], alreadySent: allLists.map((to) => ({ to })) });

    // The chain (announcement and social post) never sends twice either.
    const chain = await f.relctl(['run', 'notify', '--yes']);
    expect(chain.exitCode, chain.stderr).toBe(0);
    expect(chain.stderr).toContain('already went to');
    expect(await announcements()).toEqual(allLists);

    const resent = await f.relctl(['notify', 'announce', '--release-version', '5.1.0', '--send', '--resend']);
    expect(resent.exitCode, resent.stderr).toBe(0);
    expect(resent.stdout).toContain(`sent "${subject}" to ${allLists.join(', ')}`);
    expect(await announcements()).toEqual([...allLists, ...allLists]);
  });

  it('after a list refused the mail, a rerun sends only to that list', async () => {
    const users = lists.user[0]!;
    await f.fault({ prefix: `/smtp/rcpt/${lists.announce}`, method: 'RCPT', status: 451 });
    const failed = await f.relctl(['notify', 'announce', '--release-version', '5.0.0', '--send']);
    expect(failed.exitCode).toBe(3);
    expect(failed.stderr).toContain(`refused the mail for ${lists.announce}`);
    expect(failed.stderr).toContain(`Sent to ${lists.dev}, ${users}`);
    expect(failed.stderr).toContain('a rerun sends only to the lists that have not got it');
    const got = async (): Promise<string[]> => (await f.mailbox()).filter((m) => m.subject === '[ANN] notification-portlet 5.0.0 released').flatMap((m) => m.rcpt);
    expect(await got()).toEqual([lists.dev, users]);

    const rerun = await f.relctl(['notify', 'announce', '--release-version', '5.0.0', '--send']);
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    expect(rerun.stderr).toContain(`Already sent to ${lists.dev} (`);
    expect(rerun.stdout).toContain(`sent "[ANN] notification-portlet 5.0.0 released" to ${lists.announce} through`);
    expect(await got()).toEqual(allLists);
    const copies = (await f.mailbox()).filter((m) => m.subject === '[ANN] notification-portlet 5.0.0 released');
    expect(new Set(copies.map((m) => m.messageId)).size).toBe(1);
  });

  it('an .eml written is not a sent mail: --send still sends, and the notice date counts for preflight', async () => {
    const out = path.join(f.dir.path, 'eml');
    const written = await f.relctl(['notify', 'prerelease', '--release-version', '5.1.1', '--output', out], { RELCTL_TEST_NOW: '2026-11-19T10:00:00' });
    expect(written.exitCode, written.stderr).toBe(0);
    const sent = await f.relctl(['notify', 'prerelease', '--release-version', '5.1.1', '--send'], { RELCTL_TEST_NOW: '2026-11-20T10:00:00' });
    expect(sent.exitCode, sent.stderr).toBe(0);
    expect((await f.mailbox()).filter((m) => m.subject.startsWith('[pre-release] notification-portlet 5.1.1')).flatMap((m) => m.rcpt)).toEqual([lists.dev]);
    // The notice rule counts from the first notice: Thursday's .eml allows Monday.
    const preflight = await f.relctl(['preflight', '--offline', '--json'], { RELCTL_TEST_NOW: '2026-11-23T09:00:00' });
    const codes = (JSON.parse(preflight.stdout) as { findings: { code: string }[] }).findings.map((x) => x.code).filter((c) => c.startsWith('prerelease-notice'));
    expect(codes).toEqual([]);
    // Once sent to every list, the .eml is not written again either (the chain without SMTP after a chain with it).
    const rewrite = await f.relctl(['notify', 'prerelease', '--release-version', '5.1.1', '--output', out]);
    expect(rewrite.exitCode).toBe(0);
    expect(rewrite.stdout).toContain('not sent again; --output --resend');
  });
});
