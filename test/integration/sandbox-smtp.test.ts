import nodemailer from 'nodemailer';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';

let sandbox: RunningSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

function send(url: string, subject: string, auth?: { user: string; pass: string }) {
  const u = new URL(url);
  const transport = nodemailer.createTransport({ host: u.hostname, port: Number(u.port), secure: false, ignoreTLS: true, ...(auth === undefined ? {} : { auth }) });
  return transport.sendMail({ from: 'Release Bot <release@example.org>', to: ['dev@example.org', 'users@example.org'], subject, text: 'Line one\nLine two ü' }).finally(() => transport.close());
}

const mails = async (s: RunningSandbox) => (await (await fetch(`http://127.0.0.1:${s.port}/sandbox/mail`)).json()) as Record<string, unknown>[];

describe('sandbox SMTP', () => {
  it('receives mail without AUTH, lists it parsed at /sandbox/mail and on the portal page, forgets it on reset', async () => {
    sandbox = await startSandbox();
    expect(sandbox.urls.smtpUrl).toMatch(/^smtp:\/\/127\.0\.0\.1:\d+$/);
    await send(sandbox.urls.smtpUrl!, 'Hello <lists>');
    const [mail] = await mails(sandbox);
    expect(mail).toMatchObject({ from: 'release@example.org', to: ['dev@example.org', 'users@example.org'], subject: 'Hello <lists>', text: 'Line one\nLine two ü\n' });

    const page = await fetch(`${sandbox.urls.portalUrl}/publishing/deployments`, { headers: { authorization: `Basic ${Buffer.from('sandbox:sandbox').toString('base64')}` } });
    const html = await page.text();
    expect(html).toContain('Sandbox mailbox');
    expect(html).toContain('Hello &#60;lists&#62;'); // escaped
    expect(html).toContain('Line two ü');

    const reset = await fetch(`http://127.0.0.1:${sandbox.port}/sandbox/reset`, { method: 'POST', headers: { 'x-sandbox-token': sandbox.controlToken } });
    expect(reset.status).toBe(204);
    expect(await mails(sandbox)).toEqual([]);
  });

  it('with AUTH configured, refuses a wrong password and anonymous senders', async () => {
    sandbox = await startSandbox({ smtpAuth: { user: 'mailer', password: 'pw-1234' } });
    expect(sandbox.urls.smtpUrl).toMatch(/^smtp:\/\/mailer:pw-1234@127\.0\.0\.1:\d+$/);
    await expect(send(sandbox.urls.smtpUrl!, 'wrong', { user: 'mailer', pass: 'nope' })).rejects.toMatchObject({ code: 'EAUTH' });
    await expect(send(sandbox.urls.smtpUrl!, 'anonymous')).rejects.toThrow(/authentication required/i);
    await send(sandbox.urls.smtpUrl!, 'right', { user: 'mailer', pass: 'pw-1234' });
    expect((await mails(sandbox)).map((m) => m.subject)).toEqual(['right']);
  });
});
