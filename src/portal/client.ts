import { EnvironmentError, StepFailedError, UsageError, type RelctlError } from '../core/errors.js';
import type { Finding } from '../core/findings.js';
import { componentsOfStatusErrors, decodeFailure, type ComponentErrors, type DecodeContext, type DecodedFailure } from './decode.js';
import type { HttpClient, HttpResponse } from './http.js';
import { bearerHeader, type PortalToken } from './token.js';

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

function str(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

export class PortalClient {
  constructor(
    private readonly http: HttpClient,
    private readonly urls: PortalUrls,
    private readonly token: PortalToken,
  ) {}

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    return { authorization: bearerHeader(this.token), accept: 'application/json', ...extra };
  }

  private staging(p: string): string {
    return `${this.urls.stagingApiUrl.replace(/\/+$/, '')}${p}`;
  }
  private publisher(p: string): string {
    return `${this.urls.portalUrl.replace(/\/+$/, '')}/api/v1/publisher${p}`;
  }

  private fail(res: HttpResponse, ctx: Omit<DecodeContext, 'portalUrl'>): never {
    throw failureToError(decodeFailure(res.status, res.text(), { ...ctx, portalUrl: this.urls.portalUrl }));
  }

  private uploadAnswer(res: HttpResponse): UploadAnswer {
    const text = res.text();
    const json = res.json() as Record<string, unknown> | undefined;
    const fromJson = json !== undefined && typeof json === 'object' && json !== null ? str(json.deploymentId) : null;
    const id = fromJson ?? uuidPattern.exec(text)?.[0];
    return id == null ? {} : { deploymentId: id };
  }

  /** POST /manual/upload/defaultRepository/{ns}: moves this address's staging repository. */
  async upload(groupId: string, publishingType: PublishingType): Promise<UploadAnswer> {
    const url = this.staging(`/manual/upload/defaultRepository/${encodeURIComponent(groupId)}?publishing_type=${publishingType}`);
    const res = await this.http.request({ method: 'POST', url, headers: this.headers() });
    if (res.status < 200 || res.status > 299) this.fail(res, { action: 'manual upload', groupId });
    return this.uploadAnswer(res);
  }

  /** POST /manual/upload/repository/{key}: the by-key form that works from any address. */
  async uploadByKey(repositoryKey: string, publishingType: PublishingType, groupId?: string): Promise<UploadAnswer> {
    // The key contains "/": sent raw, as most clients do.
    const url = this.staging(`/manual/upload/repository/${repositoryKey}?publishing_type=${publishingType}`);
    const res = await this.http.request({ method: 'POST', url, headers: this.headers() });
    if (res.status < 200 || res.status > 299) {
      this.fail(res, { action: 'manual upload by repository key', repositoryKey, ...(groupId === undefined ? {} : { groupId }) });
    }
    return this.uploadAnswer(res);
  }

  /**
   * POST /api/v1/publisher/upload: a bundle zip as the multipart part `bundle` (the portal-native
   * route); the reply is the deployment id as text.
   */
  async uploadBundle(bundle: Uint8Array, o: { name: string; publishingType: 'USER_MANAGED' | 'AUTOMATIC'; filename: string }): Promise<UploadAnswer> {
    const url = this.publisher(`/upload?${new URLSearchParams({ publishingType: o.publishingType, name: o.name })}`);
    const boundary = `relctl-${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`;
    const head = `--${boundary}\r\ncontent-disposition: form-data; name="bundle"; filename="${o.filename.replace(/["\r\n]/g, '_')}"\r\ncontent-type: application/octet-stream\r\n\r\n`;
    const body = Buffer.concat([Buffer.from(head), bundle, Buffer.from(`\r\n--${boundary}--\r\n`)]);
    const res = await this.http.request({ method: 'POST', url, headers: this.headers({ 'content-type': `multipart/form-data; boundary=${boundary}` }), body });
    if (res.status < 200 || res.status > 299) this.fail(res, { action: 'bundle upload' });
    return this.uploadAnswer(res);
  }

  async search(query: { groupId: string; ip: 'any' | 'client'; state?: string }): Promise<StagingRepository[]> {
    const params = new URLSearchParams({ ip: query.ip, profile_id: query.groupId });
    if (query.state !== undefined) params.set('state', query.state);
    const res = await this.http.request({ method: 'GET', url: this.staging(`/manual/search/repositories?${params}`), headers: this.headers() });
    if (res.status !== 200) this.fail(res, { action: 'search', groupId: query.groupId });
    const json = res.json() as { repositories?: unknown } | undefined;
    const list = Array.isArray(json?.repositories) ? (json.repositories as Record<string, unknown>[]) : [];
    return list
      .filter((r) => r !== null && typeof r === 'object' && typeof r.key === 'string')
      .map((r) => ({
        key: r.key as string,
        state: str(r.state) ?? 'unknown',
        description: str(r.description),
        portalDeploymentId: str(r.portal_deployment_id),
      }));
  }

  async dropRepository(repositoryKey: string): Promise<void> {
    const res = await this.http.request({ method: 'DELETE', url: this.staging(`/manual/drop/repository/${repositoryKey}`), headers: this.headers() });
    if (res.status < 200 || res.status > 299) this.fail(res, { action: 'drop of the staging repository', repositoryKey });
  }

  async status(deploymentId: string): Promise<DeploymentStatus> {
    const url = this.publisher(`/status?id=${encodeURIComponent(deploymentId)}`);
    // POST by the API's design, but it only reads: safe to ask again on a lost answer.
    let res: HttpResponse | undefined;
    for (let attempt = 0; res === undefined; attempt++) {
      try {
        res = await this.http.request({ method: 'POST', url, headers: this.headers() });
        if ([408, 429, 502, 503, 504].includes(res.status) && attempt < 4) {
          res = undefined;
          await new Promise((r) => setTimeout(r, 250 * 2 ** attempt));
        }
      } catch (error) {
        if (attempt >= 4 || (error as RelctlError).kind !== 'request-ambiguous') throw error;
        await new Promise((r) => setTimeout(r, 250 * 2 ** attempt));
      }
    }
    if (res.status !== 200) this.fail(res, { action: 'status request', deploymentId });
    const json = (res.json() ?? {}) as Record<string, unknown>;
    const name = str(json.deploymentName);
    return {
      deploymentId: str(json.deploymentId) ?? deploymentId,
      ...(name === null ? {} : { deploymentName: name }),
      deploymentState: str(json.deploymentState) ?? 'UNKNOWN',
      purls: Array.isArray(json.purls) ? json.purls.map(String) : [],
      errors: componentsOfStatusErrors(json.errors),
    };
  }

  async publish(deploymentId: string): Promise<void> {
    const res = await this.http.request({ method: 'POST', url: this.publisher(`/deployment/${encodeURIComponent(deploymentId)}`), headers: this.headers() });
    if (res.status < 200 || res.status > 299) this.fail(res, { action: 'publish', deploymentId });
  }

  async dropDeployment(deploymentId: string): Promise<void> {
    const res = await this.http.request({ method: 'DELETE', url: this.publisher(`/deployment/${encodeURIComponent(deploymentId)}`), headers: this.headers() });
    if (res.status < 200 || res.status > 299) this.fail(res, { action: 'drop of the deployment', deploymentId });
  }
}
