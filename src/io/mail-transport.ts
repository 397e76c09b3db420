import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { EnvironmentError, UsageError } from '../core/errors.js';
import type { MailMessage } from '../core/post-release/mail.js';
import type { Redactor } from '../core/redact.js';

export interface SmtpTarget {
  host: string;
  port: number;
  /** smtps:// : TLS from the first byte; smtp:// : STARTTLS when offered (required off loopback). */
  secure: boolean;
  user?: string;
  pass?: string;
  loopback: boolean;
  /** The URL with the password masked: what --verbose and errors show. */
  display: string;
}

/**
 * Parses RELCTL_SMTP_URL (`smtp://user:pass@host:port`, `smtps://...`). The password is registered
 * with the redactor before anything can print it.
 */
export function parseSmtpUrl(value: string, redactor: Redactor): SmtpTarget {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError('RELCTL_SMTP_URL is not a URL.', { kind: 'invalid-config', fix: 'Set it as smtp://user:password@host:port (or smtps:// for TLS from the start).' });
  }
  const user = url.username === '' ? undefined : decodeURIComponent(url.username);
  const pass = url.password === '' ? undefined : decodeURIComponent(url.password);
  redactor.add(pass, url.password);
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') {
    throw new UsageError(`RELCTL_SMTP_URL: ${url.protocol} is not smtp: or smtps:.`, { kind: 'invalid-config', fix: 'Set it as smtp://user:password@host:port.' });
  }
  const secure = url.protocol === 'smtps:';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = url.port === '' ? (secure ? 465 : 587) : Number(url.port);
  const loopback = /^127\.\d+\.\d+\.\d+$/.test(host) || host === 'localhost' || host === '::1';
  const display = `${url.protocol}//${user === undefined ? '' : `${encodeURIComponent(user)}${pass === undefined ? '' : ':***'}@`}${url.host}`;
  return { host, port, secure, loopback, display, ...(user === undefined ? {} : { user }), ...(pass === undefined ? {} : { pass }) };
}

/** Sends each message over SMTP (nodemailer, loaded only here). Returns the accepted message ids. */
export async function sendMails(target: SmtpTarget, messages: readonly MailMessage[], timeoutMs: number): Promise<string[]> {
  const { default: nodemailer } = await import('nodemailer');
  const transport = nodemailer.createTransport({
    host: target.host,
    port: target.port,
    secure: target.secure,
    // Off loopback a plain-text password never crosses the network: STARTTLS is required.
    requireTLS: !target.secure && !target.loopback,
    ignoreTLS: target.loopback && !target.secure,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    ...(target.user === undefined ? {} : { auth: { user: target.user, pass: target.pass ?? '' } }),
  });
  const ids: string[] = [];
  try {
    for (const m of messages) {
      const info = await transport.sendMail({ from: m.from, to: m.to, subject: m.subject, text: m.text });
      ids.push(String(info.messageId));
    }
  } catch (error) {
    const e = error as { code?: string; responseCode?: number; message?: string };
    const auth = e.code === 'EAUTH' || e.responseCode === 535;
    // nodemailer's messages name the host, never the password; the redactor is the second guard.
    throw new EnvironmentError(`${target.display}: ${auth ? 'the SMTP server refused the login' : 'sending failed'} (${e.code ?? 'error'}: ${e.message ?? String(error)}).`, {
      kind: auth ? 'smtp-auth-rejected' : 'smtp-failed',
      fix: auth
        ? 'Check the user and password in RELCTL_SMTP_URL.'
        : 'Check RELCTL_SMTP_URL (host, port, smtp:// or smtps://), or write the mails with --output DIR and send them from your own client.',
      data: { sent: ids.length },
    });
  } finally {
    transport.close();
  }
  return ids;
}

/** Writes each message as an .eml file people can open and send from their own mail client. */
export async function writeEmlFiles(dir: string, messages: readonly MailMessage[], baseName: (m: MailMessage) => string): Promise<string[]> {
  const { default: nodemailer } = await import('nodemailer');
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  await mkdir(dir, { recursive: true });
  const files: string[] = [];
  for (const m of messages) {
    const info = await composer.sendMail({ from: m.from, to: m.to, subject: m.subject, text: m.text, headers: { 'X-Unsent': '1' } });
    const file = path.join(dir, `${baseName(m)}.eml`);
    await writeFile(file, info.message as Buffer);
    files.push(file);
  }
  return files;
}
