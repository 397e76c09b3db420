import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Accounts, SandboxUser } from '../shared/accounts.js';
import { HttpError, continueAndRead, safeSegments, sourceAddress } from '../shared/http.js';
import type { StreamedPut } from '../staging/store.js';
import { created, parseAction, send, sendNexusError } from './request.js';
import { nexusError, type Nexus2Staging } from './service.js';
import { profileOf, repositoryOf, xmlItems } from './shapes.js';

const schemes = ['Basic', 'Bearer'] as const;
const profilesPath = /^\/staging\/profiles\/([^/]+)(?:\/(start|finish|promote|drop))?$/;
const repositoryPath = /^\/staging\/repository\/([^/]+)(\/activity)?$/;
const bulkPath = /^\/staging\/bulk\/(close|promote|drop)$/;
const deployById = '/staging/deployByRepositoryId/';

/** Writes a PUT's body the way the staging service does (small in memory, large spooled to disk). */
export type PutBody = (req: IncomingMessage, res: ServerResponse, store: (body: Uint8Array | StreamedPut) => Promise<void>) => Promise<void>;

function decoded(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw nexusError(400, 'Malformed path');
  }
}

function expect(req: IncomingMessage, ...methods: string[]): void {
  if (!methods.includes(req.method ?? 'GET')) throw new HttpError(405, '', { allow: methods.join(', ') });
}

/** Nexus 2's status document: the staging client checks the edition (PRO) and version first. */
function statusOf(base: string): Record<string, string | boolean> {
  return {
    appName: 'Nexus Repository Manager',
    formattedAppName: 'Nexus Repository Manager',
    version: '2.15.1-02',
    apiVersion: '2.15.1-02',
    editionLong: 'Professional',
    editionShort: 'PRO',
    state: 'STARTED',
    baseUrl: base,
    firstStart: false,
    instanceUpgraded: false,
    configurationUpgraded: false,
    licenseInstalled: true,
    licenseExpired: false,
    trialLicense: false,
  };
}

/**
 * `/staging/service/local/...` except `staging/deploy/maven2` (the staging service's own): the
 * Nexus 2 staging API of issue 28. Errors are Nexus error documents in the caller's format.
 */
export function nexus2Routes(accounts: Accounts, nexus2: Nexus2Staging, putBody: PutBody) {
  return async (req: IncomingMessage, res: ServerResponse, rest: string, query: URLSearchParams): Promise<void> => {
    try {
      await handle(accounts, nexus2, putBody, req, res, rest, query);
    } catch (error) {
      const body = error instanceof HttpError ? (error.body as { error?: unknown } | undefined) : undefined;
      if (!(error instanceof HttpError) || typeof body !== 'object' || typeof body?.error !== 'string' || res.headersSent) throw error;
      // A refused request whose body was never read cannot share the connection any more.
      const headers = req.complete ? error.headers : { ...error.headers, connection: 'close' };
      sendNexusError(req, res, new HttpError(error.status, error.body, headers));
    }
  };
}

async function handle(accounts: Accounts, nexus2: Nexus2Staging, putBody: PutBody, req: IncomingMessage, res: ServerResponse, rest: string, query: URLSearchParams): Promise<void> {
  const base = `http://${String(req.headers.host ?? '127.0.0.1')}/staging`;
  if (rest === '/status') {
    expect(req, 'GET', 'HEAD');
    send(req, res, 200, { root: 'status', value: { data: statusOf(base) } });
    return;
  }
  const user = accounts.require(req, schemes, 'staging');
  const ip = sourceAddress(req);

  if (rest.startsWith(deployById)) {
    const [id, ...path] = rest.slice(deployById.length).split('/');
    const segments = safeSegments(path.join('/'));
    const repositoryId = decoded(id ?? '');
    if (req.method === 'PUT') {
      nexus2.checkPut(user, repositoryId, segments);
      await putBody(req, res, (body) => nexus2.put(user, repositoryId, segments, body));
      created(res);
      return;
    }
    expect(req, 'GET', 'HEAD', 'PUT');
    const data = nexus2.get(user, repositoryId, segments);
    if (data === undefined) throw nexusError(404, `Not found: ${segments.join('/')}`);
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(data.length) });
    res.end(req.method === 'HEAD' ? undefined : data);
    return;
  }

  if (rest === '/staging/profile_evaluate') {
    expect(req, 'GET');
    const groupId = query.get('g') ?? '';
    const data = nexus2.evaluate(user, groupId).map((ns) => profileOf(base, ns, `${base}/service/local/staging/profiles/${ns}`));
    send(req, res, 200, { root: 'stagingProfiles', items: { data: 'stagingProfile' }, value: { data } });
    return;
  }
  if (rest === '/staging/profiles') {
    expect(req, 'GET');
    const data = nexus2.profiles(user).map((ns) => profileOf(base, ns, `${base}/service/local/staging/profiles/${ns}`));
    send(req, res, 200, { root: 'stagingProfiles', items: { data: 'stagingProfile' }, value: { data } });
    return;
  }
  const profile = profilesPath.exec(rest);
  if (profile !== null) {
    const id = nexus2.profile(user, decoded(profile[1]!));
    const action = profile[2];
    if (action === undefined) {
      expect(req, 'GET');
      send(req, res, 200, { root: 'profileResponse', value: { data: profileOf(base, id, `${base}/service/local/staging/profiles/${id}`) } });
      return;
    }
    expect(req, 'POST');
    const body = parseAction(await continueAndRead(req, res, 1024 * 1024));
    if (action === 'start') {
      const repo = await nexus2.start(user, ip, String(req.headers['user-agent'] ?? ''), id, body.description);
      send(req, res, 201, { root: 'promoteResponse', value: { data: { stagedRepositoryId: repo.key, description: body.description } } });
      return;
    }
    if (body.ids.length !== 1) throw nexusError(400, 'The request names no staged repository (data.stagedRepositoryId)');
    for (const repositoryId of body.ids) if (nexus2.find(user, repositoryId).profileId !== id) throw nexusError(400, `Repository ${repositoryId} is not in profile ${id}`);
    await act(nexus2, action === 'finish' ? 'close' : action, user, ip, body.ids, false);
    created(res);
    return;
  }

  const bulk = bulkPath.exec(rest);
  if (bulk !== null) {
    expect(req, 'POST');
    const body = parseAction(await continueAndRead(req, res, 1024 * 1024));
    if (body.ids.length === 0) throw nexusError(400, 'The request names no staged repositories (data.stagedRepositoryIds)');
    await act(nexus2, bulk[1]!, user, ip, body.ids, true);
    created(res);
    return;
  }

  const repository = repositoryPath.exec(rest);
  if (repository !== null) {
    expect(req, 'GET');
    const repo = nexus2.find(user, decoded(repository[1]!));
    if (repository[2] === undefined) {
      send(req, res, 200, { root: 'stagingProfileRepository', value: repositoryOf(base, repo, nexus2.deploymentOf(repo)) });
      return;
    }
    send(req, res, 200, { root: 'list', rootItem: 'stagingActivity', items: xmlItems, value: (repo.activity ?? []) as never });
    return;
  }

  if (rest === '/staging/profile_repositories' || rest.startsWith('/staging/profile_repositories/')) {
    expect(req, 'GET');
    const profileId = rest === '/staging/profile_repositories' ? undefined : nexus2.profile(user, decoded(rest.slice('/staging/profile_repositories/'.length)));
    const data = nexus2.mine(user, profileId).map((r) => repositoryOf(base, r, nexus2.deploymentOf(r)));
    send(req, res, 200, { root: 'stagingRepositories', items: { data: 'stagingProfileRepository' }, value: { data } });
    return;
  }
  throw nexusError(404, `Not found: /staging/service/local${rest}`);
}

/**
 * close/promote/drop. A bulk close that failed validation answers 400 with the portal's failure
 * text (what gradle-nexus prints); the single `finish` answers 201 and leaves the verdict to the
 * repository's state and activity (what nexus-staging-maven-plugin and JReleaser read).
 */
async function act(nexus2: Nexus2Staging, action: string, user: SandboxUser, ip: string, ids: string[], bulk: boolean): Promise<void> {
  if (action === 'close') {
    const deployments = await nexus2.close(user, ip, ids);
    const failed = deployments.filter((d) => d.state === 'FAILED');
    if (bulk && failed.length > 0) throw nexusError(400, failed.map((d) => d.failure ?? 'Deployment reached an unexpected status: Failed').join('\n'));
    return;
  }
  if (action === 'promote') return nexus2.promote(user, ip, ids);
  return nexus2.drop(user, ids);
}
