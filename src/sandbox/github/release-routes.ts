import { notFound, repoOf, reply, requireLogin, saved, jsonBody, str, validationFailed, type GithubCall } from './request.js';
import { releaseJson } from './shapes.js';
import { nowIso, type ReleaseRecord } from './state.js';

/** `/repos/{o}/{r}/releases[...]`: list, get by id or tag, create, update. One release per tag. */
export async function handleReleases(call: GithubCall): Promise<void> {
  const repo = repoOf(call);
  const tail = call.segments.slice(4);
  const json = (rel: ReleaseRecord): Record<string, unknown> => releaseJson(repo, rel, call.bases);
  if (call.method === 'GET' && tail.length === 0) {
    const list = [...repo.releases].sort((a, b) => b.id - a.id);
    const perPage = Math.min(Number(call.query.get('per_page') ?? '30') || 30, 100);
    const page = Math.max(Number(call.query.get('page') ?? '1') || 1, 1);
    return reply(call, 200, list.slice((page - 1) * perPage, page * perPage).map(json));
  }
  if (call.method === 'GET' && tail.length === 2 && tail[0] === 'tags') {
    // As GitHub: a draft is not found by its tag (only in the list and by id).
    const rel = repo.releases.find((r) => r.tag_name === tail[1] && !r.draft);
    if (rel === undefined) throw notFound();
    return reply(call, 200, json(rel));
  }
  if (call.method === 'GET' && tail.length === 1 && tail[0] === 'latest') {
    const rel = repo.releases.filter((r) => !r.draft && !r.prerelease).sort((a, b) => b.id - a.id)[0];
    if (rel === undefined) throw notFound();
    return reply(call, 200, json(rel));
  }
  const byId = tail.length === 1 ? repo.releases.find((r) => String(r.id) === tail[0]) : undefined;
  if (call.method === 'GET' && tail.length === 1) {
    if (byId === undefined) throw notFound();
    return reply(call, 200, json(byId));
  }
  if (call.method === 'POST' && tail.length === 0) {
    const login = requireLogin(call);
    const body = await jsonBody(call);
    const tag = str(body, 'tag_name');
    if (tag === undefined || tag.trim() === '') throw validationFailed([{ resource: 'Release', code: 'missing_field', field: 'tag_name' }]);
    if (repo.releases.some((r) => r.tag_name === tag)) throw validationFailed([{ resource: 'Release', code: 'already_exists', field: 'tag_name' }]);
    const draft = body.draft === true;
    const rel: ReleaseRecord = {
      id: call.gh.nextId(),
      tag_name: tag,
      target_commitish: str(body, 'target_commitish') ?? repo.default_branch,
      name: str(body, 'name') ?? null,
      body: str(body, 'body') ?? null,
      draft,
      prerelease: body.prerelease === true,
      author: login,
      created_at: nowIso(),
      published_at: draft ? null : nowIso(),
    };
    repo.releases.push(rel);
    return saved(call, 201, json(rel));
  }
  if (call.method === 'PATCH' && tail.length === 1) {
    requireLogin(call);
    if (byId === undefined) throw notFound();
    const body = await jsonBody(call);
    const tag = str(body, 'tag_name');
    if (tag !== undefined && tag !== byId.tag_name && repo.releases.some((r) => r.tag_name === tag)) {
      throw validationFailed([{ resource: 'Release', code: 'already_exists', field: 'tag_name' }]);
    }
    if (tag !== undefined) byId.tag_name = tag;
    if (typeof body.name === 'string' || body.name === null) byId.name = body.name;
    if (typeof body.body === 'string' || body.body === null) byId.body = body.body;
    if (typeof body.draft === 'boolean') {
      if (byId.draft && !body.draft) byId.published_at = nowIso();
      byId.draft = body.draft;
    }
    if (typeof body.prerelease === 'boolean') byId.prerelease = body.prerelease;
    return saved(call, 200, json(byId));
  }
  throw notFound();
}
