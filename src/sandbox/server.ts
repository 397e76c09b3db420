import { randomBytes } from 'node:crypto';
import { readdir, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { makeOwnedTempDir } from '../io/owned-temp.js';
import { controlRoutes } from './control/routes.js';
import { GitRoot } from './github/git-root.js';
import { handleGithub } from './github/routes.js';
import { GithubService } from './github/service.js';
import { handleJira } from './jira/routes.js';
import { JiraService } from './jira/service.js';
import { KeyServerHost } from './keyservers/index.js';
import { BundleStore } from './portal/bundles.js';
import { Deployments } from './portal/deployments.js';
import type { PublishingLimits } from './portal/limits.js';
import { portalRoutes } from './portal/routes.js';
import { loadRules } from './portal/rules.js';
import { PublicStore } from './repo/public-store.js';
import { repoRoutes } from './repo/routes.js';
import { Nexus2Staging } from './nexus2/service.js';
import { startSmtp } from './smtp/index.js';
import { SnapshotRepository } from './snapshots/repository.js';
import { snapshotRoutes, snapshotsPrefix } from './snapshots/routes.js';
import { Accounts, type SandboxUser } from './shared/accounts.js';
import { dispatcher } from './shared/dispatch.js';
import { Faults } from './shared/faults.js';
import type { Route } from './shared/http.js';
import { DataDir, KeyedLock, StateFile } from './shared/persistence.js';
import { StagingRepositories } from './staging/repositories.js';
import { maxBundleBytes, stagingRoutes } from './staging/routes.js';
import { StagingStore } from './staging/store.js';

export type { SandboxUser } from './shared/accounts.js';
export type { PublishingLimits } from './portal/limits.js';

export interface SandboxOptions {
  /** 0 = any free port */
  port?: number;
  /** State and files survive restarts here; without it a temporary folder removed on close. */
  dataDir?: string;
  /** A Maven-layout folder served (read-only) by the public repository. */
  seedRepo?: string;
  /** Default: sandbox/sandbox, every namespace. */
  users?: SandboxUser[];
  /** The X-Sandbox-Token of state-changing /sandbox/* calls; default: random per start. */
  controlToken?: string;
  /** Let keys whose address was never confirmed on the primary key server validate. */
  acceptUnconfirmedKeys?: boolean;
  /** Namespaces whose SNAPSHOTs are enabled from the start (the portal's "Enable SNAPSHOTs"); default: none. */
  snapshotNamespaces?: string[];
  /** Publishing limits per organization (an account's namespaces together) and month; default: none. */
  limits?: PublishingLimits;
  /**
   * The portal's bundle cap (1 GiB, answered 413): no single staged file may exceed it either.
   * There is no smaller per-file cap, as on the real service; tests inject a small value.
   */
  maxBundleBytes?: number;
  /** One line per event worth a human's eye: repairs at start, clients gone, internal errors. */
  log?: (line: string) => void;
  /** SMTP listener port on 127.0.0.1 (default: any free port). */
  smtpPort?: number;
  /** A Nexus 2 staging close publishes at once (AUTOMATIC); default: it waits VALIDATED (user-managed). */
  closePublishes?: boolean;
  /** Require SMTP AUTH with this user and password (default: anyone may send). */
  smtpAuth?: { user: string; password: string };
  /**
   * Bare repositories `DIR/OWNER/NAME.git` the GitHub stand-in serves over git's smart HTTP at
   * `<githubGitUrl>/OWNER/NAME.git` and lists in `GET /orgs/{org}/repos` (DESIGN §13 Sandbox).
   */
  gitRoot?: string;
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
  /** With a git root: `<githubGitUrl>/OWNER/NAME.git` clones DIR/OWNER/NAME.git (the API's `clone_url`). */
  githubGitUrl?: string;
}

export interface RunningSandbox {
  port: number;
  urls: SandboxUrls;
  users: SandboxUser[];
  /** Send as X-Sandbox-Token on POST/DELETE /sandbox/* (reset, faults). */
  controlToken: string;
  /** The absolute git root, when one was given. */
  gitRoot?: string;
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

/** Starts the sandbox on 127.0.0.1 (briefs/interfaces.md: the programmatic API). */
export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const gitRoot = options.gitRoot === undefined ? undefined : path.resolve(options.gitRoot);
  // A missing or unreadable git root fails the start (ENOENT, ENOTDIR with its path), before
  // anything is opened, rather than every request later.
  if (gitRoot !== undefined) await readdir(gitRoot);
  const temporary = options.dataDir === undefined;
  // Marked as relctl's (io/owned-temp.ts): a later run removes it if this process is killed.
  const dir = new DataDir(temporary ? await makeOwnedTempDir('relctl-sandbox-') : path.resolve(options.dataDir!));
  await dir.open();
  const stateFile = new StateFile(dir);
  await stateFile.load();
  const accounts = new Accounts((options.users ?? defaultUsers).map((u) => ({ ...u })));
  const controlToken = options.controlToken ?? randomBytes(24).toString('base64url');
  let origin = '';

  // Each service owns its routes and state; they share only the persistence layer (and locks).
  const keys = new KeyServerHost(stateFile, { acceptUnconfirmed: options.acceptUnconfirmedKeys === true });
  const rules = await loadRules({ keyForValidation: (issuer) => keys.current.keyForValidation(issuer) });
  const publicRepo = new PublicStore(dir, await dir.folder('repo'), options.seedRepo);
  const bundles = new BundleStore(dir, await dir.folder('deployments'));
  const deployments = new Deployments(stateFile, bundles, publicRepo, rules, new KeyedLock(), options.limits);
  const stagingStore = new StagingStore(await dir.folder('staging'));
  const snapshots = new SnapshotRepository(dir, await dir.folder('snapshots'), stateFile, options.snapshotNamespaces ?? []);
  const staging = new StagingRepositories(accounts, stateFile, stagingStore, deployments);
  try {
    const repaired = [...(await deployments.adoptLegacy((id) => stagingStore.file(id))), ...(await staging.repair()), ...(await deployments.repair())];
    if (repaired.length > 0) {
      await stateFile.save();
      options.log?.(`sandbox: repaired ${dir.root}: ${repaired.join('; ')}`);
    }
  } catch (error) {
    stagingStore.close();
    throw error;
  }
  const faults = new Faults();
  const [github, jira] = await Promise.all([GithubService.open(dir.root, { gitRoot: gitRoot === undefined ? undefined : new GitRoot(gitRoot), faults }), JiraService.open(dir.root)]);
  const smtp = await startSmtp({
    ...(options.smtpPort === undefined ? {} : { port: options.smtpPort }),
    ...(options.smtpAuth === undefined ? {} : { auth: options.smtpAuth }),
    ...(options.log === undefined ? {} : { log: options.log }),
    faults,
  });

  const reset = async (): Promise<void> => {
    keys.reset();
    await staging.reset();
    await deployments.reset();
    await publicRepo.clear();
    await snapshots.reset();
    await github.reset();
    await jira.reset();
    smtp.reset();
    await stateFile.save();
  };
  const control = controlRoutes({
    faults,
    controlToken,
    reset,
    enableSnapshots: (namespace, on) => snapshots.setEnabled(namespace, on),
    // The key server's confirmation mails, then what the SMTP listener received.
    mails: () => [...keys.current.mails(), ...smtp.mails()],
    view: () => ({
      repositories: staging.list,
      deployments: deployments.list,
      users: accounts.users.map((u) => ({ name: u.name, namespaces: u.namespaces ?? null, ...(u.expires === undefined ? {} : { expires: u.expires }) })),
      snapshotNamespaces: snapshots.namespaces,
      // The GitHub stand-in's issues, pulls, comments and pushes (githubIssues, githubPulls, ...).
      ...github.view(),
    }),
  });
  // One line per service: `/<name>/...` goes to it; the portal's host also serves its snapshot repository.
  const bundleLimit = options.maxBundleBytes ?? maxBundleBytes;
  const portal = portalRoutes(accounts, deployments, () => smtp.mails(), bundleLimit);
  const snapshotRepo = snapshotRoutes(accounts, snapshots);
  const mounts = new Map<string, Route>([
    ['staging', stagingRoutes(accounts, staging, bundleLimit, new Nexus2Staging(accounts, staging, deployments, stateFile, { closePublishes: options.closePublishes === true }))],
    ['portal', (req, res, rest, query, search) => (rest.startsWith(snapshotsPrefix) ? snapshotRepo : portal)(req, res, rest, query, search)],
    ['repo', repoRoutes(publicRepo)],
    ['keys', keys.primaryRoutes(() => origin)],
    ['keys2', keys.secondaryRoutes()],
    ['github', (req, res, rest, query, search) => handleGithub(github, origin, req, res, rest, query, search)],
    ['jira', (req, res, rest, query) => handleJira(jira, origin, req, res, rest, query)],
    ['sandbox', control],
  ]);

  const handle = dispatcher({
    mounts,
    faults,
    faultFree: new Set(['sandbox']),
    ownOrigins: () => [origin, origin.replace('127.0.0.1', 'localhost')],
    log: options.log,
  });
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
    // Nothing may stay open when the start fails (a port in use): the caller gets only the error.
    stagingStore.close();
    await smtp.close();
    throw error;
  });
  const port = (server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;

  let closed: Promise<void> | undefined;
  return {
    port,
    urls: { ...sandboxUrls(origin), smtpUrl: smtp.url, ...(gitRoot === undefined ? {} : { githubGitUrl: `${origin}/github` }) },
    users: accounts.users.map((u) => ({ ...u })),
    controlToken,
    ...(gitRoot === undefined ? {} : { gitRoot }),
    close: () =>
      (closed ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        await smtp.close();
        await stateFile.save().catch(() => undefined);
        staging.store.close();
        if (temporary) await rm(dir.root, { recursive: true, force: true });
      })()),
  };
}
