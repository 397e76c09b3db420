import { notFound, replyPage, type GithubCall } from './request.js';
import { repoJson, type RepoFacts } from './shapes.js';
import type { RepoRecord } from './state.js';

interface Listed {
  record: RepoRecord;
  facts: RepoFacts;
}

/** `type`: GitHub's values; `member` and anything unknown list everything, as `all` does. */
function typeFilter(type: string | null): (r: Listed) => boolean {
  const priv = (r: Listed): boolean => r.facts.private ?? r.record.private;
  const fork = (r: Listed): boolean => r.facts.fork === true;
  switch (type) {
    case 'public':
      return (r) => !priv(r);
    case 'private':
      return priv;
    case 'forks':
      return fork;
    case 'sources':
      return (r) => !fork(r);
    default:
      return () => true;
  }
}

/**
 * `GET /orgs/{org}/repos` and `GET /users/{user}/repos` (DESIGN §13 Sandbox): the `--git-root`
 * repositories of that owner and the stand-in's own ones, paged like GitHub. A git root
 * repository gets a record on first listing (as any repository does on first use), so its `id`
 * stays the same in every later answer. Sorted by `full_name` unless `sort` says `created`,
 * `updated` or `pushed` (all the record's age here); `direction` as on GitHub.
 */
export async function handleOwnerRepos(call: GithubCall): Promise<void> {
  const owner = call.segments[1]!;
  const located = await call.gh.gitRoot?.list(owner);
  const o = owner.toLowerCase();
  const own = call.gh.state.repos.filter((r) => r.owner.toLowerCase() === o);
  if (located === undefined && own.length === 0) throw notFound();

  const listed: Listed[] = own.map((record) => ({ record, facts: {} }));
  let created = false;
  const fromRoot = await Promise.all((located ?? []).map(async (repo) => ({ repo, facts: await call.gh.gitRoot!.facts(repo) })));
  for (const { repo, facts } of fromRoot) {
    const known = call.gh.find(repo.owner, repo.name);
    const record = known ?? call.gh.repo(repo.owner, repo.name);
    created ||= known === undefined;
    const at = listed.findIndex((l) => l.record === record);
    if (at < 0) listed.push({ record, facts });
    else listed[at] = { record, facts };
  }
  if (created) await call.gh.save();

  const byName = (call.query.get('sort') ?? 'full_name') === 'full_name';
  const ascending = (call.query.get('direction') ?? (byName ? 'asc' : 'desc')) !== 'desc';
  const key = (l: Listed): string => `${l.record.owner}/${l.record.name}`.toLowerCase();
  const sorted = listed
    .filter(typeFilter(call.query.get('type')))
    .sort((a, b) => (byName ? (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0) : a.record.id - b.record.id) * (ascending ? 1 : -1));
  return replyPage(call, sorted, (l) => repoJson(l.record, call.bases, l.facts));
}
