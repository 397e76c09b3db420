import type { AddressInfo } from 'node:net';
import type { SMTPServer } from 'smtp-server';
import type { Faults } from '../shared/faults.js';

/**
 * The sandbox's SMTP listener (DESIGN §8, §11): what `relctl notify --send` talks to in tests and
 * rehearsals. Every accepted message is parsed (mailparser) into `{from, to, subject, text}` and
 * kept in memory for `GET /sandbox/mail` and the portal page's mailbox. AUTH is optional: with
 * `auth` set, only that user and password may send; without it, anyone may (logged in or not).
 * A sandbox fault on `/smtp/rcpt/<address>` (method RCPT) refuses that recipient with the
 * fault's status as the SMTP reply code (451 a temporary refusal, 550 a permanent one).
 */
export interface ReceivedMail {
  from: string;
  to: string[];
  /** The envelope's recipients: where this copy was delivered (To may name more lists). */
  rcpt: string[];
  messageId: string;
  subject: string;
  text: string;
  date: string;
}

export interface SmtpOptions {
  port?: number;
  auth?: { user: string; password: string };
  log?: (line: string) => void;
  /** The sandbox's fault injection (POST /sandbox/faults). */
  faults?: Faults;
}

export interface RunningSmtp {
  port: number;
  /** smtp://[user:password@]127.0.0.1:PORT, ready for RELCTL_SMTP_URL. */
  url: string;
  mails(): ReceivedMail[];
  reset(): void;
  close(): Promise<void>;
}

const maxMessageBytes = 5 * 1024 * 1024;
const maxKept = 500;

function addresses(value: unknown): string[] {
  const list = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return list.flatMap((a: { value?: { address?: string }[] }) => (a.value ?? []).map((v) => v.address ?? '').filter((x) => x !== ''));
}

export async function startSmtp(options: SmtpOptions = {}): Promise<RunningSmtp> {
  const [{ SMTPServer: Server }, { simpleParser }] = await Promise.all([import('smtp-server'), import('mailparser')]);
  const inbox: ReceivedMail[] = [];
  const auth = options.auth;
  const server: SMTPServer = new Server({
    // Loopback only, plain text: no built-in certificate presented, AUTH allowed without TLS.
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authOptional: auth === undefined,
    logger: false,
    size: maxMessageBytes,
    banner: 'relctl sandbox SMTP',
    onAuth(credentials, _session, callback) {
      if (auth !== undefined && (credentials.username !== auth.user || credentials.password !== auth.password)) {
        callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
        return;
      }
      callback(null, { user: credentials.username ?? 'anonymous' });
    },
    onRcptTo(address, _session, callback) {
      const fault = options.faults?.take(`/smtp/rcpt/${address.address}`, 'RCPT');
      if (fault?.kind === 'answer') {
        const code = fault.error.status >= 400 ? fault.error.status : 550;
        callback(Object.assign(new Error(`Recipient ${address.address} refused (sandbox fault)`), { responseCode: code }));
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const to = addresses(parsed.to);
          const rcpt = session.envelope.rcptTo.map((r) => r.address);
          inbox.push({
            from: addresses(parsed.from)[0] ?? session.envelope.mailFrom?.valueOf().toString() ?? '',
            to: to.length > 0 ? to : rcpt,
            rcpt,
            messageId: parsed.messageId ?? '',
            subject: parsed.subject ?? '',
            text: (parsed.text ?? '').replace(/\r\n/g, '\n'),
            date: (parsed.date ?? new Date()).toISOString(),
          });
          if (inbox.length > maxKept) inbox.splice(0, inbox.length - maxKept);
          callback();
        })
        .catch((error: unknown) => {
          options.log?.(`sandbox SMTP: unparseable message: ${error instanceof Error ? error.message : String(error)}`);
          callback(Object.assign(new Error('Message could not be parsed'), { responseCode: 554 }));
        });
    },
  });
  server.on('error', (error) => options.log?.(`sandbox SMTP: ${error.message}`));
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.server.off('error', reject);
      resolve();
    });
  });
  const port = (server.server.address() as AddressInfo).port;
  const credentials = auth === undefined ? '' : `${encodeURIComponent(auth.user)}:${encodeURIComponent(auth.password)}@`;
  return {
    port,
    url: `smtp://${credentials}127.0.0.1:${port}`,
    mails: () => inbox.map((m) => ({ ...m, to: [...m.to], rcpt: [...m.rcpt] })),
    reset: () => {
      inbox.length = 0;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
