import { mkdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { EnvironmentError, UsageError } from '../core/errors.js';
import { isLoopbackHost } from '../core/loopback.js';
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
  // Masked before decoding: a malformed password is still a password.
  redactor.add(url.password);
  const user = url.username === '' ? undefined : decodeUserinfo(url.username, 'user name');
  const pass = url.password === '' ? undefined : decodeUserinfo(url.password, 'password');
  redactor.add(pass);
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') {
    throw new UsageError(`RELCTL_SMTP_URL: ${url.protocol} is not smtp: or smtps:.`, { kind: 'invalid-config', fix: 'Set it as smtp://user:password@host:port.' });
  }
  const secure = url.protocol === 'smtps:';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = url.port === '' ? (secure ? 465 : 587) : Number(url.port);
  const loopback = isLoopbackHost(host);
  const display = `${url.protocol}//${user === undefined ? '' : `${encodeURIComponent(user)}${pass === undefined ? '' : ':***'}@`}${url.host}`;
  return { host, port, secure, loopback, display, ...(user === undefined ? {} : { user }), ...(pass === undefined ? {} : { pass }) };
}

/** A percent-escaped part of the URL's user:password; a `%` that starts no escape is a usage error, not a crash. */
function decodeUserinfo(value: string, what: 'user name' | 'password'): string {
  try {
    return decodeURIComponent(value);
  } catch {
    throw new UsageError(`RELCTL_SMTP_URL: the ${what} holds a % that is not a percent-escape (%XX).`, {
      kind: 'invalid-config',
      fix: `Write each % in the ${what} as %25 (and @ as %40, : as %3A, / as %2F): RELCTL_SMTP_URL holds the ${what} percent-encoded.`,
    });
  }
}

/** One delivery that reached its recipient: what the journal records. */
export interface Delivered {
  to: string;
  messageId: string;
}

export interface SendOptions {
  /** The Message-ID every delivery of this mail carries (one mail, delivered list by list). */
  messageId: string;
  timeoutMs: number;
  /** Called after each recipient accepted the mail, before the next is tried: journal it at once. */
  onDelivered(delivered: Delivered): Promise<void>;
}

/**
 * Sends `message` to each of `recipients` in a transaction of its own (nodemailer, loaded only
 * here): the To header names every list, the envelope one, so a list that refuses the mail does
 * not stop the others and a rerun can send to just the lists that lack it. A refused recipient is
 * noted and the next one tried; a refused login or a lost connection stops at once.
 */
export async function sendMail(target: SmtpTarget, message: MailMessage, recipients: readonly string[], options: SendOptions): Promise<void> {
  const { default: nodemailer } = await import('nodemailer');
  const timeoutMs = options.timeoutMs;
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
  const sent: string[] = [];
  const refused: { to: string; why: string }[] = [];
  try {
    for (const to of recipients) {
      try {
        await transport.sendMail({
          from: message.from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          messageId: options.messageId,
          envelope: { from: message.from, to: [to] },
        });
      } catch (error) {
        const e = error as { code?: string; message?: string };
        if (e.code !== 'EENVELOPE') throw smtpFailure(target, error, sent, recipients);
        refused.push({ to, why: e.message ?? 'refused' });
        continue;
      }
      sent.push(to);
      await options.onDelivered({ to, messageId: options.messageId });
    }
  } finally {
    transport.close();
  }
  if (refused.length > 0) {
    throw new EnvironmentError(`The SMTP server refused the mail for ${refused.map((r) => `${r.to} (${r.why})`).join(', ')}.${partly(sent, [])}`, {
      kind: 'smtp-recipient-refused',
      fix: `Check the address in relctl.config.json (mail) and the server's answer, then run the same command again: ${rerunHint}`,
      data: { sent, refused: refused.map((r) => r.to) },
    });
  }
}

/** A refused login or a failed connection: nothing more can be sent in this run. */
function smtpFailure(target: SmtpTarget, error: unknown, sent: readonly string[], recipients: readonly string[]): EnvironmentError {
  const e = error as { code?: string; responseCode?: number; message?: string };
  const auth = e.code === 'EAUTH' || e.responseCode === 535;
  // nodemailer's messages name the host, never the password; the redactor is the second guard.
  const what = `${target.display}: ${auth ? 'the SMTP server refused the login' : 'sending failed'} (${e.code ?? 'error'}: ${e.message ?? String(error)})`;
  return new EnvironmentError(`${what}.${partly(sent, recipients.filter((r) => !sent.includes(r)))}`, {
    kind: auth ? 'smtp-auth-rejected' : 'smtp-failed',
    fix: auth
      ? 'Check the user and password in RELCTL_SMTP_URL.'
      : `Check RELCTL_SMTP_URL (host, port, smtp:// or smtps://), or write the mails with --output DIR and send them from your own client.${sent.length > 0 ? ` Then ${rerunHint}` : ''}`,
    data: { sent: [...sent] },
  });
}

const rerunHint = 'a rerun sends only to the lists that have not got it (the journal records the others).';

function partly(sent: readonly string[], notSent: readonly string[]): string {
  if (sent.length === 0) return '';
  return ` Sent to ${sent.join(', ')}${notSent.length > 0 ? `; not to ${notSent.join(', ')}` : ''}.`;
}

/**
 * `--output DIR` must be a folder or not exist yet (it is created): an existing file is a usage
 * error before anything is composed, never a crash in mkdir.
 */
export async function checkOutputDir(dir: string, shown: string): Promise<void> {
  const found = await stat(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw new UsageError(`--output ${shown}: cannot be used (${error.code ?? error.message}).`, { fix: 'Pass a folder you can write to.' });
  });
  if (found !== undefined && !found.isDirectory()) {
    throw new UsageError(`--output ${shown} is a file, not a folder: the mail is written into a folder as <kind>-<artifactId>-X.Y.Z.eml.`, {
      fix: 'Pass a folder (it is created when missing), e.g. --output mails.',
    });
  }
}

/**
 * Writes each message as an .eml file people can open and send from their own mail client.
 * `redact` masks secrets in the file as in everything relctl prints (callers redact the message's
 * fields too: an encoded body would hide a secret from a search of the file).
 */
export async function writeEmlFiles(dir: string, messages: readonly MailMessage[], baseName: (m: MailMessage) => string, redact: (text: string) => string): Promise<string[]> {
  const { default: nodemailer } = await import('nodemailer');
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  await mkdir(dir, { recursive: true });
  const files: string[] = [];
  for (const m of messages) {
    const info = await composer.sendMail({ from: m.from, to: m.to, subject: m.subject, text: m.text, headers: { 'X-Unsent': '1' } });
    const file = path.join(dir, `${baseName(m)}.eml`);
    await writeFile(file, redact((info.message as Buffer).toString('utf8')));
    files.push(file);
  }
  return files;
}
