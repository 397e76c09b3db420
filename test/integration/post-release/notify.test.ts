import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { git } from '../../helpers/temp.js';
import { notifyFixture, type NotifyFixture } from './notify-fixture.js';

// A canary SMTP password: it must never show in anything relctl prints or writes.
const canary = 'smtp-Canary-7f3a9c';

let f: NotifyFixture;
let project: string;
const home = (): string => f.home;

beforeAll(async () => {
  f = await notifyFixture({ smtpPassword: canary });
  project = f.project;
});
afterAll(async () => {
  await f?.[Symbol.asyncDispose]();
});

const smtpUrl = (): string => f.sandbox.urls.smtpUrl!;
const relctl = (args: string[], env: Record<string, string> = {}) => f.relctl(args, { RELCTL_SMTP_URL: '', ...env });
const mailbox = () => f.mailbox();

describe('relctl notify', () => {
  it('sends the pre-release notice through SMTP (AUTH), journals it, and preflight counts working days from it', async () => {
    expect(smtpUrl()).toMatch(/^smtp:\/\/mailer:.+@127\.0\.0\.1:\d+$/);
    // Friday 2026-11-20: the notice for 5.1.1 goes to the developer list.
    const sent = await relctl(['notify', 'prerelease', '--release-version', '5.1.1', '--send', '--verbose'], {
      RELCTL_SMTP_URL: smtpUrl(),
      RELCTL_TEST_NOW: '2026-11-20T10:00:00',
    });
    expect(sent.exitCode, sent.stderr).toBe(0);
    expect(sent.stdout).toContain('sent "[pre-release] notification-portlet 5.1.1 planned for 2026-11-24" to dev@lists.example.org');
    expect(sent.stderr).toContain('smtp://mailer:***@127.0.0.1');
    const mail = (await mailbox()).find((m) => m.subject.includes('[pre-release] notification-portlet 5.1.1'))!;
    expect(mail).toMatchObject({ from: 'release@example.org', to: ['dev@lists.example.org'] });
    expect(mail.text).toContain('on or after 2026-11-24');
    // The changes since 5.1.0, not those 5.1.0 already shipped.
    expect(mail.text).toMatch(/Changes since 5\.1\.0:\n\n## Features\n\n- mute a channel per user \(#14\) \([0-9a-f]{7}\)\n\n/);

    const journal = JSON.parse(await readFile(path.join(project, '.relctl', 'journal.json'), 'utf8')) as { notices: { kind: string; version: string; date: string }[] };
    expect(journal.notices).toEqual([expect.objectContaining({ kind: 'prerelease', version: '5.1.1', date: '2026-11-20' })]);

    const preflightOn = async (now: string): Promise<string[]> => {
      const r = await relctl(['preflight', '--offline', '--json'], { RELCTL_TEST_NOW: now });
      return (JSON.parse(r.stdout) as { findings: { code: string; severity: string }[] }).findings
        .filter((f) => f.code.startsWith('prerelease-notice'))
        .map((f) => `${f.code}:${f.severity}`);
    };
    // Monday: one working day (the weekend does not count); Tuesday: two.
    expect(await preflightOn('2026-11-23T09:00:00')).toEqual(['prerelease-notice-too-recent:warning']);
    expect(await preflightOn('2026-11-24T09:00:00')).toEqual([]);
    for (const r of [sent]) expect(r.stdout + r.stderr).not.toContain(canary);
  });

  it('warns that the notice is missing for a version nobody was told about', async () => {
    await git(project, home(), 'commit', '-q', '--allow-empty', '-m', 'chore: bump');
    const r = await relctl(['preflight', '--offline', '--json']);
    const json = JSON.parse(r.stdout.replace(/5\.1\.1/g, '5.1.1')) as { findings: { code: string; message: string }[] };
    // The project is still at 5.1.1-SNAPSHOT; the journal has the notice, so only a new version lacks one.
    expect(json.findings.some((f) => f.code === 'prerelease-notice-missing')).toBe(false);
    const other = await relctl(['notify', 'announce', '--release-version', '5.1.0', '--dry-run', '--send'], { RELCTL_SMTP_URL: smtpUrl() });
    expect(other.exitCode).toBe(0);
    expect(other.stderr).toContain('! send "[ANN] notification-portlet 5.1.0 released" to dev@lists.example.org, users@lists.example.org, announce@lists.example.org');
    expect(other.stdout + other.stderr).not.toContain(canary);
  });

  it('announces to the developer, user and announcement lists', async () => {
    const r = await relctl(['notify', 'announce', '--send', '--json'], { RELCTL_SMTP_URL: smtpUrl() });
    expect(r.exitCode, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { version: string; delivery: string };
    expect(doc).toMatchObject({ version: '5.1.0', delivery: 'sent' }); // the newest release tag
    const mail = (await mailbox()).find((m) => m.subject === '[ANN] notification-portlet 5.1.0 released')!;
    expect(mail.to).toEqual(['dev@lists.example.org', 'users@lists.example.org', 'announce@lists.example.org']);
    expect(mail.text).toContain(`${f.sandbox.urls.publicRepoUrl}/org/example/notification-portlet/5.1.0/`);
    expect(mail.text).toContain('<artifactId>notification-portlet</artifactId>');
    expect(mail.text).toMatch(/What changed since 5\.0\.0:\n\n## Fixes\n\n- empty feed no longer breaks the portlet \(#12\) \([0-9a-f]{7}\)\n/);
    expect(mail.text).not.toContain('maven-release-plugin');
    expect(r.stdout + r.stderr).not.toContain(canary);
  });

  it('a refused login is exit 3 and never echoes the password', async () => {
    const wrong = smtpUrl().replace(`:${encodeURIComponent(canary)}@`, ':Wrong-Canary-Pass@');
    const r = await relctl(['notify', 'announce', '--send', '--resend', '--verbose'], { RELCTL_SMTP_URL: wrong });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain('the SMTP server refused the login');
    expect(r.stdout + r.stderr).not.toContain('Wrong-Canary-Pass');
  });

  it('writes .eml files for people who send from their own client, and drafts a social post', async () => {
    const out = path.join(f.dir.path, 'mails');
    // The announcement went to every list above: writing it again takes --resend.
    const r = await relctl(['notify', 'announce', '--output', out, '--resend']);
    expect(r.exitCode, r.stderr).toBe(0);
    const files = await readdir(out);
    expect(files).toEqual(['announce-notification-portlet-5.1.0.eml']);
    // Header lines unfolded (RFC 5322 folds long ones).
    const eml = (await readFile(path.join(out, files[0]!), 'utf8')).replace(/\r\n[ \t]+/g, ' ');
    expect(eml).toMatch(/^Subject: \[ANN\] notification-portlet 5\.1\.0 released\r$/m);
    expect(eml).toMatch(/^To: dev@lists\.example\.org, users@lists\.example\.org, announce@lists\.example\.org\r$/m);

    const social = await relctl(['notify', 'social']);
    expect(social.exitCode).toBe(0);
    const post = social.stdout.trim();
    expect(post.length).toBeLessThanOrEqual(280);
    expect(post).toContain('notification-portlet 5.1.0');
    expect(post).toContain('/org/example/notification-portlet/5.1.0/');
  });

  it('--send without RELCTL_SMTP_URL is a usage error naming the variable', async () => {
    const r = await relctl(['notify', 'prerelease', '--send']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('RELCTL_SMTP_URL');
  });
});
