import { spawn } from 'node:child_process';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';

/** A CGI header block larger than this is no header block (git's is a few hundred bytes). */
const maxHeaderBytes = 64 * 1024;

/** Where the header block ends: the first empty line, written `\r\n\r\n` or `\n\n`. */
function headerEnd(buf: Buffer): { at: number; length: number } | undefined {
  const crlf = buf.indexOf('\r\n\r\n');
  const lf = buf.indexOf('\n\n');
  if (crlf < 0 && lf < 0) return undefined;
  if (lf < 0 || (crlf >= 0 && crlf < lf)) return { at: crlf, length: 4 };
  return { at: lf, length: 2 };
}

/** `Status: 404 Not Found` sets the status (200 without one, RFC 3875 §6.3.3); other lines are headers. */
function parseHeaders(block: string): { status: number; headers: OutgoingHttpHeaders } {
  let status = 200;
  const headers: OutgoingHttpHeaders = {};
  for (const line of block.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'status') status = Number.parseInt(value, 10) || 500;
    else headers[name] = value;
  }
  return { status, headers };
}

/** Waits until the client took what was written, or went away. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/**
 * Runs a CGI program for one request: the request body streams into its stdin, its header block
 * becomes the answer's status and headers, and the rest streams out as it comes (a clone is not
 * held in memory). The answer is left open, so the caller can record what the program did before
 * the client sees the end. Throws when the program ends without a header block.
 */
export async function runCgi(
  req: IncomingMessage,
  res: ServerResponse,
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ exitCode: number; status: number }> {
  const child = spawn(command, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
  const exited = new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve(code ?? 128));
  });
  // Handled here so that a program that fails to start is not an unhandled rejection before
  // the loop below is done; the await at the end still sees the error.
  exited.catch(() => undefined);
  // Nobody left to answer: the program's work (a push half sent) is abandoned, as git does.
  const hangUp = (): void => {
    if (child.exitCode === null) child.kill();
  };
  res.once('close', hangUp);
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    if (stderr.length < 4096) stderr += d.toString('utf8');
  });
  // The program may answer (an error) before it read the whole body.
  child.stdin.on('error', () => undefined);
  if (/100-continue/i.test(String(req.headers.expect ?? ''))) res.writeContinue();
  req.pipe(child.stdin);

  let head: Buffer | undefined = Buffer.alloc(0);
  let status = 0;
  let complete = false;
  try {
    for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
      if (res.destroyed) break;
      let body = chunk;
      if (head !== undefined) {
        head = Buffer.concat([head, chunk]);
        const end = headerEnd(head);
        if (end === undefined) {
          if (head.length > maxHeaderBytes) throw new Error(`${command} ${args.join(' ')}: no end of its CGI header block`);
          continue;
        }
        const parsed = parseHeaders(head.subarray(0, end.at).toString('latin1'));
        status = parsed.status;
        res.writeHead(status, parsed.headers);
        body = head.subarray(end.at + end.length);
        head = undefined;
      }
      if (body.length > 0 && !res.write(body)) await drained(res);
    }
    complete = !res.destroyed;
  } finally {
    res.off('close', hangUp);
    // Stopped early (the client left, a bad header block): the program must not live on.
    if (!complete) hangUp();
  }
  const exitCode = await exited;
  if (head !== undefined && !res.destroyed) {
    throw new Error(`${command} ${args.join(' ')} exited ${exitCode} without an answer: ${stderr.trim().slice(0, 500)}`);
  }
  return { exitCode, status };
}
