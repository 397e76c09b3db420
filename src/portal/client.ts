import { EnvironmentError, StepFailedError, UsageError, type RelctlError } from '../core/errors.js';
import type { Finding } from '../core/findings.js';
import type { RepositoryKey } from '../core/identifiers.js';
import { decodePublished } from '../core/portal/published.js';
import { componentsOfStatusErrors, decodeFailure, deploymentsUrl, type ComponentErrors, type DecodeContext, type DecodedFailure } from './decode.js';
import { displayUrl } from '../io/http-policy.js';
import type { ApiTarget, HttpClient, HttpRequest, HttpResponse, StreamedBody } from '../io/http.js';
import { bundleTooLargeFix } from './bundle-limit.js';
import { bearerHeader, type PortalToken } from './token.js';
import { apiUrl, keyText } from './urls.js';

/** Staging API (manual endpoints) and Publisher API calls. Auth only here; key servers get none. */
export interface PortalUrls {
  stagingApiUrl: string;
  portalUrl: string;
}

export type PublishingType = 'user_managed' | 'automatic' | 'portal_api';

export interface StagingRepository {
  key: string;
  state: string;
  description: string | null;
  portalDeploymentId: string | null;
}

export interface DeploymentStatus {
  deploymentId: string;
  deploymentName?: string;
  deploymentState: string;
  purls: string[];
  errors: ComponentErrors[];
}

export interface UploadAnswer {
  /** A deployment id when the portal said one (body UUID); else the caller searches. */
  deploymentId?: string;
}

/** An error carrying the decoded portal findings (validation failures), for the renderers. */
export type PortalFailure = RelctlError & { findings?: Finding[] };

export function failureToError(d: DecodedFailure): PortalFailure {
  const data: Record<string, unknown> = {};
  if (d.deploymentId !== undefined) data.deploymentId = d.deploymentId;
  if (d.repositoryKey !== undefined) data.repositoryKey = d.repositoryKey;
  if (d.deploymentsUrl !== undefined) data.deploymentsUrl = d.deploymentsUrl;
  const options = { kind: d.kind, fix: d.fix, data };
  const error: PortalFailure =
    d.exit === 'usage'
      ? new UsageError(d.message, options)
      : d.exit === 'environment'
        ? new EnvironmentError(d.message, options)
        : new StepFailedError(d.message, options);
  if (d.findings !== undefined) error.findings = d.findings;
  return error;
}

const uuidPattern = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const stagingApi: ApiTarget = { name: 'staging API', setting: '--staging-api-url (RELCTL_STAGING_API_URL)' };
const publisherApi: ApiTarget = { name: 'Publisher API', setting: '--portal-url (RELCTL_PORTAL_URL)' };

function str(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

/** The exact command that shows what a lost upload or drop of this namespace did. */
export function searchCommand(namespace: string): string {
  return `relctl search --namespace ${namespace} --ip any`;
}

export class PortalClient {
  constructor(
    private readonly http: HttpClient,
    private readonly urls: PortalUrls,
    private readonly token: PortalToken,
  ) {}

  private call(api: ApiTarget, req: Omit<HttpRequest, 'api'>): Promise<HttpResponse> {
    return this.http.request({ ...req, api, headers: { ...req.headers, authorization: bearerHeader(this.token), accept: 'application/json' } });
  }

  private staging(query: Record<string, string | undefined> = {}) {
    return apiUrl(this.urls.stagingApiUrl, query);
  }
  private publisher(query: Record<string, string | undefined> = {}) {
    return apiUrl(`${this.urls.portalUrl.replace(/\/+$/, '')}/api/v1/publisher`, query);
  }

  private fail(res: HttpResponse, req: { method: string; url: string }, ctx: Omit<DecodeContext, 'portalUrl'>): never {
    // The portal's front server refuses a bundle over 1 GiB with a bare 413 (an HTML page or
    // nothing: finos/legend-engine#5051, prestodb/presto#25856): the size, not a proxy, is the cause.
    if (res.status === 413) {
      throw new StepFailedError(`The portal refused the ${ctx.action} as too large (HTTP 413): a deployment bundle may hold at most 1 GiB.`, {
        kind: 'bundle-too-large',
        fix: bundleTooLargeFix,
      });
    }
    // An HTML error page is a web server or proxy talking, not the API: its text decodes to nothing true.
    if (res.contentType === 'text/html' && ![401, 402, 403].includes(res.status)) {
      throw new EnvironmentError(
        `The ${ctx.action} got HTTP ${res.status} with an HTML page, not an answer of the API (${req.method} ${displayUrl(req.url)}).`,
        {
          kind: res.status >= 500 ? 'portal-unavailable' : 'unexpected-response',
          fix: 'Check --staging-api-url and --portal-url (and any proxy): they must point at the APIs themselves; if they do, the service is having trouble, try again later.',
        },
      );
    }
    const challenge = res.headers['www-authenticate'];
    throw failureToError(decodeFailure(res.status, res.text(), { ...ctx, portalUrl: this.urls.portalUrl, ...(challenge === undefined ? {} : { challenge: [challenge].flat().join(', ') }) }));
  }

  private uploadAnswer(res: HttpResponse): UploadAnswer {
    const json = res.json() as Record<string, unknown> | undefined;
    const fromJson = json !== undefined && typeof json === 'object' && json !== null ? str(json.deploymentId) : null;
    const id = fromJson ?? uuidPattern.exec(res.text())?.[0];
    return id == null ? {} : { deploymentId: id };
  }

  /** POST /manual/upload/defaultRepository/{namespace}: moves this address's staging repository. */
  async upload(namespace: string, publishingType: PublishingType): Promise<UploadAnswer> {
    const url = this.staging({ publishing_type: publishingType })`/manual/upload/defaultRepository/${namespace}`;
    const res = await this.call(stagingApi, { method: 'POST', url, expect: 'json-or-empty', settle: searchCommand(namespace) });
    if (res.status < 200 || res.status > 299) this.fail(res, { method: 'POST', url }, { action: 'manual upload', groupId: namespace });
    return this.uploadAnswer(res);
  }

  /** POST /manual/upload/repository/{key}: the by-key form that works from any address. */
  async uploadByKey(key: RepositoryKey, publishingType: PublishingType): Promise<UploadAnswer> {
    const url = this.staging({ publishing_type: publishingType })`/manual/upload/repository/${{ repositoryKey: key }}`;
    const res = await this.call(stagingApi, { method: 'POST', url, expect: 'json-or-empty', settle: searchCommand(key.namespace) });
    if (res.status < 200 || res.status > 299) {
      this.fail(res, { method: 'POST', url }, { action: 'manual upload by repository key', repositoryKey: keyText(key), groupId: key.namespace });
    }
    return this.uploadAnswer(res);
  }

  /**
   * POST /api/v1/publisher/upload: a bundle zip as the multipart part `bundle` (the portal-native
   * route), streamed from disk (see bundle-body.ts); the reply is the deployment id as text.
   */
  async uploadBundle(form: { body: StreamedBody; contentType: string }, o: { name: string; publishingType: 'USER_MANAGED' | 'AUTOMATIC' }): Promise<UploadAnswer> {
    const url = this.publisher({ publishingType: o.publishingType, name: o.name })`/upload`;
    const headers = { 'content-type': form.contentType };
    // The answer is the deployment id as text/plain; a lost one is settled by the status of the deployments page.
    const res = await this.call(publisherApi, { method: 'POST', url, headers, body: form.body, expect: 'json-or-empty', settle: `open ${deploymentsUrl(this.urls.portalUrl)}` });
    if (res.status < 200 || res.status > 299) this.fail(res, { method: 'POST', url }, { action: 'bundle upload' });
    return this.uploadAnswer(res);
  }

  /** GET /manual/search/repositories: `profile_id` is the namespace; without it, every repository of the token's user. */
  async search(query: { namespace?: string; ip: 'any' | 'client'; state?: string }): Promise<StagingRepository[]> {
    const url = this.staging({ ip: query.ip, profile_id: query.namespace, state: query.state })`/manual/search/repositories`;
    const res = await this.call(stagingApi, { method: 'GET', url });
    if (res.status !== 200) this.fail(res, { method: 'GET', url }, { action: 'search', ...(query.namespace === undefined ? {} : { groupId: query.namespace }) });
    const json = res.json() as { repositories?: unknown } | null;
    if (json === null || typeof json !== 'object' || !Array.isArray(json.repositories)) {
      throw shapeProblem('staging API', `GET ${displayUrl(url)}`, 'a "repositories" list', '--staging-api-url');
    }
    return (json.repositories as Record<string, unknown>[])
      .filter((r) => r !== null && typeof r === 'object' && typeof r.key === 'string')
      .map((r) => ({
        key: r.key as string,
        state: str(r.state) ?? 'unknown',
        description: str(r.description),
        portalDeploymentId: str(r.portal_deployment_id),
      }));
  }

  async dropRepository(key: RepositoryKey): Promise<void> {
    const url = this.staging()`/manual/drop/repository/${{ repositoryKey: key }}`;
    const res = await this.call(stagingApi, { method: 'DELETE', url, expect: 'json-or-empty', settle: searchCommand(key.namespace) });
    if (res.status < 200 || res.status > 299) this.fail(res, { method: 'DELETE', url }, { action: 'drop of the staging repository', repositoryKey: keyText(key) });
  }

  async status(deploymentId: string): Promise<DeploymentStatus> {
    const url = this.publisher({ id: deploymentId })`/status`;
    // POST by the API's design, but it only reads: safe to ask again on a lost answer.
    const res = await this.call(publisherApi, { method: 'POST', url, idempotent: true });
    if (res.status !== 200) this.fail(res, { method: 'POST', url }, { action: 'status request', deploymentId });
    const json = res.json() as Record<string, unknown> | null;
    if (json === null || typeof json !== 'object' || typeof json.deploymentState !== 'string') {
      throw shapeProblem('Publisher API', `POST ${displayUrl(url)}`, 'a "deploymentState"', '--portal-url');
    }
    const name = str(json.deploymentName);
    return {
      deploymentId: str(json.deploymentId) ?? deploymentId,
      ...(name === null ? {} : { deploymentName: name }),
      deploymentState: json.deploymentState,
      purls: Array.isArray(json.purls) ? json.purls.map(String) : [],
      errors: componentsOfStatusErrors(json.errors),
    };
  }

  /** GET /published?namespace=&name=&version=: the portal's own "is it on Central", without the public repository's lag. */
  async published(c: { groupId: string; artifactId: string; version: string }): Promise<boolean> {
    const url = this.publishedUrl(c);
    const res = await this.call(publisherApi, { method: 'GET', url });
    if (res.status !== 200) this.fail(res, { method: 'GET', url }, { action: 'published check', groupId: c.groupId });
    const answer = decodePublished(res.json());
    if (answer === undefined) throw shapeProblem('Publisher API', `GET ${displayUrl(url)}`, 'a boolean "published"', '--portal-url');
    return answer;
  }

  publishedUrl(c: { groupId: string; artifactId: string; version: string }): string {
    return this.publisher({ namespace: c.groupId, name: c.artifactId, version: c.version })`/published`;
  }

  async publish(deploymentId: string): Promise<void> {
    const url = this.publisher()`/deployment/${deploymentId}`;
    const res = await this.call(publisherApi, { method: 'POST', url, expect: 'json-or-empty', settle: `relctl status --deployment ${deploymentId}` });
    if (res.status < 200 || res.status > 299) this.fail(res, { method: 'POST', url }, { action: 'publish', deploymentId });
  }

  async dropDeployment(deploymentId: string): Promise<void> {
    const url = this.publisher()`/deployment/${deploymentId}`;
    const res = await this.call(publisherApi, { method: 'DELETE', url, expect: 'json-or-empty', settle: `relctl status --deployment ${deploymentId}` });
    if (res.status < 200 || res.status > 299) this.fail(res, { method: 'DELETE', url }, { action: 'drop of the deployment', deploymentId });
  }
}

/** JSON, but not the document the API answers: as untrustworthy as an HTML page. */
function shapeProblem(api: string, shown: string, missing: string, setting: string): EnvironmentError {
  return new EnvironmentError(`The ${api} answered JSON without ${missing} (${shown}): that is not the API's answer.`, {
    kind: 'unexpected-response',
    fix: `Check ${setting} (and any proxy): it must point at the API itself.`,
  });
}
