import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/server.js';
import { runCli } from '../../helpers/cli.js';
import { git, gitRepo, tempDir, type TempDir } from '../../helpers/temp.js';

// A canary SMTP password: it must never show in anything relctl prints or writes.
const canary = 'smtp-Canary-7f3a9c';
const pom = `<project><modelVersion>4.0.0</modelVersion><groupId>org.example</groupId><artifactId>notification-portlet</artifactId><version>5.1.1-SNAPSHOT</version></project>\n`;
const config = { mail: { from: 'release@example.org', dev: 'dev@lists.example.org', user: ['users@lists.example.org'], announce: 'announce@lists.example.org' } };

let sandbox: RunningSandbox;
let dir: TempDir;
let project: string;
const home = (): string => path.join(dir.path, 'home');

beforeAll(async () => {
  sandbox = await startSandbox({ smtpAuth: { user: 'mailer', password: canary } });
  dir = await tempDir('relctl-notify-');
  project = path.join(dir.path, 'project');
  await gitRepo(project, home(), { 'pom.xml': pom, 'relctl.config.json': JSON.stringify(config) });
  await git(project, home(), 'tag', 'notification-portlet-5.0.0');
  await git(project, home(), 'commit', '-q', '--allow-empty', '-m', 'fix: empty feed no longer breaks the portlet (#12)');
  await git(project, home(), 'commit', '-q', '--allow-empty', '-m', '[maven-release-plugin] prepare release notification-portlet-5.1.0');
  await git(project, home(), 'tag', 'notification-portlet-5.1.0');
  await git(project, home(), 'commit', '-q', '--allow-empty', '-m', 'feat: mute a channel per user (#14)');
});
afterAll(async () => {
  await sandbox?.close();
  await dir?.[Symbol.asyncDispose]();
});

const smtpUrl = (): string => sandbox.urls.smtpUrl!;
const relctl = (args: string[], env: Record<string, string> = {}) =>
  runCli([...args, '--cwd', project], { home: home(), env: { RELCTL_PUBLIC_REPO_URL: sandbox.urls.publicRepoUrl, ...env } });
const mailbox = async (): Promise<{ from: string; to: string[]; subject: string; text: string }[]> =>
  ((await (await fetch(`http://127.0.0.1:${sandbox.port}/sandbox/mail`)).json()) as { from?: string; to: string[]; subject: string; text: string }[]).filter(
    (m): m is { from: string; to: string[]; subject: string; text: string } => m.from !== undefined,
  );

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
    expect(mail.text).toContain(`${sandbox.urls.publicRepoUrl}/org/example/notification-portlet/5.1.0/`);
    expect(mail.text).toContain('<artifactId>notification-portlet</artifactId>');
    expect(mail.text).toMatch(/What changed since 5\.0\.0:\n\n## Fixes\n\n- empty feed no longer breaks the portlet \(#12\) \([0-9a-f]{7}\)\n/);
    expect(mail.text).not.toContain('maven-release-plugin');
    expect(r.stdout + r.stderr).not.toContain(canary);
  });

  it('a refused login is exit 3 and never echoes the password', async () => {
    const wrong = smtpUrl().replace(`:${encodeURIComponent(canary)}@`, ':Wrong-Canary-Pass@');
    const r = await relctl(['notify', 'announce', '--send', '--verbose'], { RELCTL_SMTP_URL: wrong });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain('the SMTP server refused the login');
    expect(r.stdout + r.stderr).not.toContain('Wrong-Canary-Pass');
  });

  it('writes .eml files for people who send from their own client, and drafts a social post', async () => {
    const out = path.join(dir.path, 'mails');
    const r = await relctl(['notify', 'announce', '--output', out]);
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
