import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError, continueAndRead, parseJson, sendEmpty, sendJson } from '../shared/http.js';
import { statusCategory, type JiraIssueRecord, type JiraService } from './service.js';

/**
 * `/jira/rest/api/2/issue[/{key}]`: Jira REST v2 as the tracker check reads it (issue get with
 * `fields=status,resolution`), plus create (POST) and update (PUT) so tests make their issues
 * through the stand-in's own API. Creating accepts `status`, `resolution` and `key` among the
 * fields, which real Jira sets through transitions and its own numbering: the stand-in's extension.
 * `"restricted": true` makes an issue of a private project: an anonymous read gets Jira's 404, a
 * read with `Authorization: Bearer TOKEN` or HTTP basic `user:token` sees it; a malformed
 * Authorization header is 401, as Jira answers it.
 */
function jiraError(status: number, message: string): HttpError {
  return new HttpError(status, { errorMessages: [message], errors: {} });
}

function issueJson(base: string, i: JiraIssueRecord, fields: string | null): Record<string, unknown> {
  const all: Record<string, unknown> = {
    summary: i.summary,
    status: { self: `${base}/rest/api/2/status/${i.status}`, name: i.status, statusCategory: statusCategory(i.status) },
    resolution: i.resolution === null ? null : { name: i.resolution, self: `${base}/rest/api/2/resolution/${i.resolution}` },
    created: i.created,
    updated: i.updated,
  };
  const wanted = fields === null || fields === '*all' ? Object.keys(all) : fields.split(',').map((f) => f.trim());
  return {
    expand: 'renderedFields,names,schema,operations,editmeta,changelog,versionedRepresentations',
    id: i.id,
    self: `${base}/rest/api/2/issue/${i.id}`,
    key: i.key,
    fields: Object.fromEntries(wanted.filter((f) => f in all).map((f) => [f, all[f]])),
  };
}

function nameOf(value: unknown): string | null | undefined {
  if (value === null) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && typeof (value as { name?: unknown }).name === 'string') return (value as { name: string }).name;
  return undefined;
}

async function fieldsOf(req: IncomingMessage, res: ServerResponse): Promise<Record<string, unknown>> {
  const body = parseJson(await continueAndRead(req, res, 1024 * 1024)) as { fields?: unknown } | null;
  const fields = body?.fields;
  if (fields === null || typeof fields !== 'object') throw jiraError(400, 'The request has no "fields" object.');
  return fields as Record<string, unknown>;
}

/**
 * true: a well-formed Bearer or basic credential; false: a malformed one (401, as Jira answers);
 * undefined: anonymous (another scheme is not Jira's and reads as no credential).
 */
function signedIn(req: IncomingMessage): boolean | undefined {
  const header = req.headers.authorization ?? '';
  if (/^Bearer\b/i.test(header)) return /^Bearer \S+$/.test(header);
  if (!/^Basic\b/i.test(header)) return undefined;
  const basic = /^Basic ([A-Za-z0-9+/]+=*)$/.exec(header);
  const pair = basic === null ? '' : Buffer.from(basic[1]!, 'base64').toString('utf8');
  const at = pair.indexOf(':');
  return at > 0 && at < pair.length - 1;
}

export async function handleJira(jira: JiraService, origin: string, req: IncomingMessage, res: ServerResponse, rest: string, query: URLSearchParams): Promise<void> {
  const base = `${origin}/jira`;
  const m = /^\/rest\/api\/2\/issue(?:\/([^/]+))?\/?$/.exec(rest);
  if (m === null) throw jiraError(404, 'Not found');
  const method = req.method ?? 'GET';
  const auth = signedIn(req);
  if (auth === false) throw new HttpError(401, { errorMessages: ['You are not authenticated. Authentication required to perform this operation.'], errors: {} });
  let key: string | undefined;
  try {
    key = m[1] === undefined ? undefined : decodeURIComponent(m[1]);
  } catch {
    throw jiraError(400, 'The issue key is not valid.');
  }
  if (key === undefined && method === 'POST') {
    const fields = await fieldsOf(req, res);
    const project = nameOf(fields.project) ?? (fields.project as { key?: unknown } | undefined)?.key;
    const summary = fields.summary;
    if (typeof project !== 'string' || !/^[A-Z][A-Z0-9_]*$/.test(project)) throw new HttpError(400, { errorMessages: [], errors: { project: 'project is required' } });
    if (typeof summary !== 'string' || summary.trim() === '') throw new HttpError(400, { errorMessages: [], errors: { summary: 'You must specify a summary of the issue.' } });
    const status = nameOf(fields.status);
    const resolution = nameOf(fields.resolution);
    // Tests may name the key (`"key": "UP-7"`) instead of taking the project's next number.
    const wanted = typeof fields.key === 'string' ? /^([A-Z][A-Z0-9_]*)-([1-9]\d{0,8})$/.exec(fields.key) : null;
    if (typeof fields.key === 'string' && (wanted === null || wanted[1] !== project)) {
      throw new HttpError(400, { errorMessages: [], errors: { key: `key must be ${project}-N` } });
    }
    if (wanted !== null && jira.get(fields.key as string) !== undefined) {
      throw new HttpError(400, { errorMessages: [], errors: { key: `${fields.key as string} already exists` } });
    }
    const issue = jira.create(project, {
      summary,
      ...(typeof status === 'string' ? { status } : {}),
      ...(resolution === undefined ? {} : { resolution }),
      ...(wanted === null ? {} : { number: Number(wanted[2]) }),
      ...(fields.restricted === true ? { restricted: true } : {}),
    });
    await jira.save();
    return sendJson(res, 201, { id: issue.id, key: issue.key, self: `${base}/rest/api/2/issue/${issue.id}` });
  }
  const found = key === undefined ? undefined : (jira.get(key) ?? undefined);
  const issue = found?.restricted === true && auth !== true ? undefined : found;
  if (key !== undefined && method === 'GET') {
    if (issue === undefined) throw jiraError(404, 'Issue does not exist or you do not have permission to see it.');
    return sendJson(res, 200, issueJson(base, issue, query.get('fields')));
  }
  if (key !== undefined && method === 'PUT') {
    if (issue === undefined) throw jiraError(404, 'Issue does not exist or you do not have permission to see it.');
    const fields = await fieldsOf(req, res);
    if (typeof fields.summary === 'string') issue.summary = fields.summary;
    const status = nameOf(fields.status);
    if (typeof status === 'string') issue.status = status;
    const resolution = nameOf(fields.resolution);
    if (resolution !== undefined) issue.resolution = resolution;
    issue.updated = new Date().toISOString().replace('Z', '+0000');
    await jira.save();
    return sendEmpty(res, 204);
  }
  throw jiraError(405, `Method ${method} is not allowed here.`);
}
