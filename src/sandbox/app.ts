import type { IncomingMessage } from 'node:http';
import type { KeyServerHost } from './key-servers.js';
import type { Faults } from './faults.js';
import type { GithubService } from './github/service.js';
import type { JiraService } from './jira/service.js';
import type { RunningSmtp } from './smtp/index.js';
import { HttpError, parseAuthorization } from './http-util.js';
import type { SandboxService, SandboxUser } from './service.js';
import type { PublishingType } from './state.js';

/** What every route handler gets. */
export interface SandboxApp {
  service: SandboxService;
  keys: KeyServerHost;
  faults: Faults;
  github: GithubService;
  jira: JiraService;
  /** The SMTP listener: the mail `relctl notify --send` delivered. */
  smtp: RunningSmtp;
  /** http://127.0.0.1:P */
  origin: string;
  /** Forgets every repository, deployment, published file, key and mail (not the seed). */
  reset(): Promise<void>;
}

/**
 * The caller's user from `Authorization`, or a 401 with an empty body. `realm` adds the Basic
 * challenge browsers and Maven understand.
 */
export function requireUser(app: SandboxApp, req: IncomingMessage, schemes: readonly string[], realm?: string): SandboxUser {
  const creds = parseAuthorization(req.headers.authorization, schemes);
  const user = creds === undefined ? undefined : app.service.authenticate(creds.name, creds.password);
  if (user === undefined) {
    throw new HttpError(401, '', realm === undefined ? {} : { 'www-authenticate': `Basic realm="${realm}"` });
  }
  return user;
}

/** `publishing_type`; anything but automatic/portal_api means user_managed, as the service does. */
export function publishingType(query: URLSearchParams): PublishingType {
  const value = (query.get('publishing_type') ?? '').toLowerCase();
  return value === 'automatic' || value === 'portal_api' ? value : 'user_managed';
}
