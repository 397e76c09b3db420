import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { SandboxApp } from './app.js';
import { handleControl, handleRepo } from './control-routes.js';
import { Faults } from './faults.js';
import { FileStore } from './file-store.js';
import { handleGithub } from './github/routes.js';
import { GithubService } from './github/service.js';
import { handleJira } from './jira/routes.js';
import { JiraService } from './jira/service.js';
import { HttpError, continueAndRead, sendError } from './http-util.js';
import { openKeyServers } from './key-servers.js';
import { handlePortal } from './portal-routes.js';
import { loadRules } from './rules.js';
import { SandboxService, type SandboxUser } from './service.js';
import { startSmtp } from './smtp/index.js';
import { handleStaging } from './staging-routes.js';
import { StateFile, type SandboxStateData } from './state.js';

export type { SandboxUser } from './service.js';

export interface SandboxOptions {
  /** 0 = any free port */
  port?: number;
  /** State and files survive restarts here; without it a temporary folder removed on close. */
  dataDir?: string;
  /** A Maven-layout folder served (read-only) by the public repository. */
  seedRepo?: string;
  /** Default: sandbox/sandbox, every namespace. */
  users?: SandboxUser[];
  /** Unexpected internal errors (a bug in the sandbox) are reported here. */
  log?: (line: string) => void;
  /** SMTP listener port on 127.0.0.1 (default: any free port). */
  smtpPort?: number;
  /** Require SMTP AUTH with this user and password (default: anyone may send). */
  smtpAuth?: { user: string; password: string };
}

export interface SandboxUrls {
  stagingApiUrl: string;
  portalUrl: string;
  publicRepoUrl: string;
  keyserverUrl: string;
  secondaryKeyserverUrl: string;
  githubApiUrl: string;
  jiraUrl: string;
  /** smtp://[user:password@]127.0.0.1:PORT: received mail shows in GET /sandbox/mail. */
  smtpUrl?: string;
}

export interface RunningSandbox {
  port: number;
  urls: SandboxUrls;
  users: SandboxUser[];
  close(): Promise<void>;
}

export const defaultUsers: readonly SandboxUser[] = [{ name: 'sandbox', password: 'sandbox' }];

export function sandboxUrls(origin: string): SandboxUrls {
  return {
    stagingApiUrl: `${origin}/staging`,
    portalUrl: `${origin}/portal`,
    publicRepoUrl: `${origin}/repo`,
    keyserverUrl: `${origin}/keys`,
    secondaryKeyserverUrl: `${origin}/keys2`,
    githubApiUrl: `${origin}/github/api`,
    jiraUrl: `${origin}/jira`,
  };
}

/** Splits `/mount/rest?query` without decoding (the handlers decode segment by segment). */
function splitUrl(raw: string): { mount: string; rest: string; query: URLSearchParams } {
  const q = raw.indexOf('?');
  const pathname = q < 0 ? raw : raw.slice(0, q);
  if (!pathname.startsWith('/')) throw new HttpError(400, { error: 'Bad request target' });
  const slash = pathname.indexOf('/', 1);
  return {
    mount: slash < 0 ? pathname.slice(1) : pathname.slice(1, slash),
    rest: slash < 0 ? '' : pathname.slice(slash),
    query: new URLSearchParams(q < 0 ? '' : raw.slice(q + 1)),
  };
}

async function route(app: SandboxApp, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const raw = req.url ?? '/';
  const { mount, rest, query } = splitUrl(raw);
  const search = raw.includes('?') ? raw.slice(raw.indexOf('?')) : '';
  if (mount !== 'sandbox') {
    const fault = app.faults.take(raw, req.method ?? 'GET');
    if (fault !== undefined && fault.delayMs > 0) await sleep(fault.delayMs);
    if (fault?.kind === 'reset') {
      req.socket.destroy();
      return;
    }
    if (fault?.kind === 'answer') throw fault.error;
    if (fault?.kind === 'drop-answer') dropAnswer(req, res);
  }
  switch (mount) {
    case 'staging':
      return handleStaging(app, req, res, rest, query);
    case 'portal':
      return handlePortal(app, req, res, rest, query);
    case 'repo':
      return handleRepo(app, req, res, rest);
    case 'keys':
      return app.keys.current.handlePrimary(req, res, rest + search, await continueAndRead(req, res, 1024 * 1024), `${app.origin}/keys`);
    case 'keys2':
      return app.keys.current.handleSecondary(req, res, rest + search, await continueAndRead(req, res, 1024 * 1024));
    case 'github':
      return handleGithub(app.github, app.origin, req, res, rest, query);
    case 'jira':
      return handleJira(app.jira, app.origin, req, res, rest, query);
    case 'sandbox':
      return handleControl(app, req, res, rest);
    default:
      throw new HttpError(404, { error: `Not found: ${raw.split('?')[0]}` });
  }
}

/** The handler runs to the end (its change is made), but the client never hears the answer. */
function dropAnswer(req: IncomingMessage, res: ServerResponse): void {
  const hangUp = (): ServerResponse => {
    req.socket.destroy();
    return res;
  };
  res.writeHead = hangUp as unknown as ServerResponse['writeHead'];
  res.write = (() => (hangUp(), false)) as unknown as ServerResponse['write'];
  res.end = hangUp as unknown as ServerResponse['end'];
}

/** Starts the sandbox on 127.0.0.1 (briefs/interfaces.md: the programmatic API). */
export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const temporary = options.dataDir === undefined;
  const dataDir = temporary ? await mkdtemp(path.join(os.tmpdir(), 'relctl-sandbox-')) : path.resolve(options.dataDir!);
  await mkdir(dataDir, { recursive: true });
  const files = new FileStore(dataDir, options.seedRepo === undefined ? undefined : path.resolve(options.seedRepo));
  await files.init();
  const users = (options.users ?? defaultUsers).map((u) => ({ ...u }));

  let state: SandboxStateData | undefined;
  let keys: ReturnType<typeof openKeyServers> | undefined;
  const stateFile = new StateFile(dataDir, () => ({ ...state!, keys: keys?.current.toJSON() }));
  state = await stateFile.load();
  keys = openKeyServers(state.keys, () => void stateFile.save().catch(() => undefined));
  const keyHost = keys;
  const rules = await loadRules({ keyForValidation: (issuer) => keyHost.current.keyForValidation(issuer) });
  const service = new SandboxService(users, state, files, stateFile, rules);
  await service.resume();

  const faults = new Faults();
  const [github, jira] = await Promise.all([GithubService.open(dataDir), JiraService.open(dataDir)]);
  const smtp = await startSmtp({
    ...(options.smtpPort === undefined ? {} : { port: options.smtpPort }),
    ...(options.smtpAuth === undefined ? {} : { auth: options.smtpAuth }),
    ...(options.log === undefined ? {} : { log: options.log }),
  });
  const app: SandboxApp = {
    service,
    keys: keyHost,
    faults,
    github,
    jira,
    smtp,
    origin: '',
    reset: async () => {
      await keyHost.reset();
      await service.reset();
      await github.reset();
      await jira.reset();
      smtp.reset();
    },
  };

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    // A client that hangs up mid-request must not take the server down with an unhandled 'error'.
    req.on('error', () => undefined);
    res.on('error', () => undefined);
    route(app, req, res).catch((error: unknown) => {
      let answer: HttpError;
      if (error instanceof HttpError) answer = error;
      else {
        options.log?.(`sandbox: internal error on ${req.method} ${req.url}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        answer = new HttpError(500, { error: 'Internal sandbox error' });
      }
      // A refused request whose body was never read cannot share the connection any more.
      const headers = req.complete ? answer.headers : { ...answer.headers, connection: 'close' };
      sendError(res, new HttpError(answer.status, answer.body, headers));
    });
  };
  const server = http.createServer({ keepAliveTimeout: 10_000 });
  server.on('request', handle);
  server.on('checkContinue', handle);
  server.on('clientError', (_error, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
    else socket.destroy();
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  }).catch(async (error: unknown) => {
    await smtp.close();
    throw error;
  });
  const port = (server.address() as AddressInfo).port;
  app.origin = `http://127.0.0.1:${port}`;

  let closed: Promise<void> | undefined;
  return {
    port,
    urls: { ...sandboxUrls(app.origin), smtpUrl: smtp.url },
    users: users.map((u) => ({ ...u })),
    close: () =>
      (closed ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        await smtp.close();
        await stateFile.save().catch(() => undefined);
        if (temporary) await rm(dataDir, { recursive: true, force: true });
      })()),
  };
}
