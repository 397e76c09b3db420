import os from 'node:os';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { InterruptedError, UsageError } from '../core/errors.js';
import type { Finding } from '../core/findings.js';
import { noteEntries, type NoteEntry, type RawCommit, type RefOptions } from '../core/notes/commits.js';
import { rangeStart, releaseTags, tagOf, tagsBelow, type TaggedVersion } from '../core/notes/range.js';
import { groupSections, renderMarkdown, type NoteSection } from '../core/notes/sections.js';
import { parseRepoName, repoFromRemoteUrl, trackerFindings, trackerRefs, type RepoName } from '../core/notes/tracker.js';
import { releaseTagVersion } from '../core/tag-forms.js';
import { chooseTagTemplate } from '../core/tag-format-inference.js';
import { compareVersions, parseVersion, releaseVersionProblem } from '../core/version.js';
import type { CommandContext } from '../io/command-context.js';
import { listTags } from '../io/git.js';
import { commitExists, commitsInRange, remoteUrl } from '../io/git-history.js';
import { readJournal, type Journal } from '../io/journal.js';
import { readIdentity, type ProjectIdentity } from '../io/project.js';
import { describeVerdict, publishedVerdict } from '../io/published.js';
import { HttpClient } from '../io/http.js';
import { localAddressOf } from '../portal/session.js';

/**
 * `relctl notes` without the publishing (DESIGN §11): gathers the tags, the journal, the public
 * repository's answers and the history, then lets the pure core (src/core/notes) decide the
 * range, the sections and the tracker findings.
 */
export interface NotesRequest {
  releaseVersion?: string;
  since?: string;
  /** `--to REF`: the range ends here instead of at the release tag (or HEAD). */
  to?: string;
  /** `--repo owner/name` */
  repo?: string;
  offline: boolean;
  strict: boolean;
  /**
   * false: no tracker look-ups (the notes a mail or a pull request carries), while the public
   * repository is still asked where the range starts. Default: looked up unless offline.
   */
  tracker?: boolean;
}

export interface ReleaseNotes {
  version?: string;
  /** The release tag when it exists (the range ends there), else the range ends at HEAD. */
  tag?: string;
  previous?: string;
  skipped: string[];
  sections: NoteSection[];
  markdown: string;
  findings: Finding[];
  /** How many tracker references were looked up (0: the check did not run). */
  refsChecked: number;
  repo?: RepoName;
  /** The release page's title: `<artifactId> X.Y.Z` (or the tag). */
  title: string;
}

// A chain of unpublished tags longer than this is not a release history worth probing further.
const maxProbes = 10;

/** One client for the command's requests; tracker lookups retry once (a closed port fails fast). */
export function notesHttp(ctx: CommandContext): HttpClient {
  const localAddress = localAddressOf(ctx);
  return new HttpClient({
    timeoutMs: ctx.config.timeout * 1000,
    env: ctx.env,
    retries: 1,
    ...(localAddress === undefined ? {} : { localAddress }),
    log: (line) => ctx.out.verbose(line),
    signal: ctx.signal,
  });
}

async function configuredTagFormat(ctx: CommandContext, id: ProjectIdentity | undefined): Promise<string | undefined> {
  if (id?.buildTool !== 'gradle') return undefined;
  const { gatherGradleFacts } = await import('../build-tools/gradle/gather.js');
  const g = await gatherGradleFacts(ctx.cwd, { env: ctx.env, home: ctx.env.HOME ?? os.homedir(), stagingApiUrl: ctx.config.stagingApiUrl });
  return g.tagTemplate;
}

/**
 * The tag format: the configured one, else (no standard form in the tags) the one the project's
 * tags show (`rel_3_30_2_ga`), which --verbose names.
 */
function learnedTagFormat(ctx: CommandContext, configured: string | undefined, tags: readonly string[], versions: (string | undefined)[], artifactId: string | undefined): string | undefined {
  const choice = chooseTagTemplate(configured, tags, versions.filter((v): v is string => v !== undefined), artifactId);
  if (choice.note !== undefined) ctx.out.verbose(choice.note);
  return choice.template;
}

/** The one release-version rule (core/version.ts), for callers that bypass the option's parser. */
function checkVersion(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const problem = releaseVersionProblem(text);
  if (problem !== undefined) {
    throw new UsageError(`--release-version ${JSON.stringify(text)} is not a release version X.Y.Z (${problem}).`, { fix: 'Pass the version released, e.g. --release-version 1.0.2.' });
  }
  return text;
}

/** The repository the `#N` references and the release page belong to (DESIGN §11). */
export async function resolveRepo(ctx: CommandContext, flag: string | undefined): Promise<RepoName | undefined> {
  if (flag !== undefined) {
    const repo = parseRepoName(flag);
    if (repo === undefined) throw new UsageError(`--repo ${flag} is not owner/name.`, { fix: 'Pass e.g. --repo apereo/uPortal.' });
    return repo;
  }
  if (ctx.config.tracker?.repo !== undefined) return parseRepoName(ctx.config.tracker.repo);
  const url = await remoteUrl(ctx.cwd, 'origin', { env: ctx.env });
  return url === undefined ? undefined : repoFromRemoteUrl(url);
}

interface Start {
  start?: TaggedVersion;
  sinceRef?: string;
  previous?: string;
  skipped: string[];
}

async function findStart(ctx: CommandContext, req: NotesRequest, http: HttpClient, facts: {
  id: ProjectIdentity | undefined;
  tags: TaggedVersion[];
  version: string | undefined;
  journalOrphans: string[];
  format: string | undefined;
}): Promise<Start> {
  if (req.since !== undefined) {
    if (!(await commitExists(ctx.cwd, req.since, { env: ctx.env }))) {
      throw new UsageError(`--since ${req.since}: no such tag or commit here.`, { fix: 'Name an existing tag (git tag --list), e.g. --since demo-1.0.0.' });
    }
    const previous = releaseTagVersion(req.since, facts.id?.artifactId, facts.format) ?? req.since;
    return { sinceRef: req.since, previous, skipped: [...facts.journalOrphans] };
  }
  const below = tagsBelow(facts.tags, facts.version).slice(0, maxProbes);
  const known = new Set(facts.journalOrphans);
  const published = new Map<string, boolean | undefined>();
  const id = facts.id;
  if (!req.offline && id !== undefined) {
    for (const t of below) {
      if (known.has(t.version)) continue;
      const answer = await publishedVerdict(ctx, { groupId: id.groupId, artifactId: id.artifactId, version: t.version });
      ctx.out.verbose(`${t.version}: ${describeVerdict(answer)}`);
      if (answer.published === undefined) {
        ctx.out.warn(`Cannot tell whether ${t.version} was published (${answer.source}: ${answer.reason}); the notes start at ${t.tag}.`);
      }
      published.set(t.version, answer.published);
      if (answer.published !== false) break;
    }
  }
  const found = rangeStart(below, (v) => published.get(v), known);
  const skipped = [...new Set([...found.skipped, ...facts.journalOrphans])]
    .filter((v) => parseVersion(v) !== undefined)
    .sort((a, b) => compareVersions(parseVersion(a)!, parseVersion(b)!));
  return { ...(found.start === undefined ? {} : { start: found.start, previous: found.start.version }), skipped };
}

/**
 * The entries of the range, a few commits at a time, with a turn of the event loop whenever 50 ms
 * went by, so a Ctrl-C or SIGTERM is seen (and honoured) however long or hostile the history is.
 */
async function entriesOf(commits: readonly RawCommit[], options: RefOptions, signal: AbortSignal): Promise<NoteEntry[]> {
  const batch = 25;
  const entries: NoteEntry[] = [];
  let turned = performance.now();
  for (let at = 0; at < commits.length; at += batch) {
    if (performance.now() - turned > 50) {
      await nextTurn();
      turned = performance.now();
    }
    if (signal.aborted) throw new InterruptedError('Interrupted while reading the history.');
    entries.push(...noteEntries(commits.slice(at, at + batch), options));
  }
  return entries;
}

async function rangeEnd(ctx: CommandContext, to: string | undefined, tag: string | undefined): Promise<string> {
  if (to === undefined) return tag ?? 'HEAD';
  if (!(await commitExists(ctx.cwd, to, { env: ctx.env, signal: ctx.signal }))) {
    throw new UsageError(`--to ${to}: no such tag, branch or commit here.`, { kind: 'bad-range', fix: 'Name an existing ref, e.g. --to HEAD~3 or --to a tag from git tag --list.' });
  }
  return to;
}

export async function buildNotes(ctx: CommandContext, req: NotesRequest, http: HttpClient): Promise<ReleaseNotes> {
  const id = await readIdentity(ctx.cwd).catch(() => undefined);
  const [configured, allTags, journal] = await Promise.all([
    configuredTagFormat(ctx, id),
    listTags(ctx.cwd, { env: ctx.env, signal: ctx.signal }),
    readJournal(ctx.cwd).catch((): Journal => ({ version: 1, steps: [], uploads: [] })),
  ]);
  const format = learnedTagFormat(ctx, configured ?? id?.tagTemplate, allTags, [req.releaseVersion, journal.release?.version, id?.version], id?.artifactId);
  const tags = releaseTags(allTags, id?.artifactId, format);
  const version = checkVersion(req.releaseVersion) ?? journal.release?.version ?? tags[0]?.version;
  const tag = version === undefined ? undefined : tagOf(allTags, id?.artifactId, version, format);
  const journalOrphans = journal.release !== undefined && journal.release.version === version ? (journal.release.skippedVersions ?? []) : [];
  const start = await findStart(ctx, req, http, { id, tags, version, journalOrphans, format });
  const from = start.sinceRef ?? start.start?.tag;
  const commits = await commitsInRange(ctx.cwd, from, await rangeEnd(ctx, req.to, tag), { env: ctx.env, signal: ctx.signal });
  const jiraProjects = ctx.config.tracker?.jiraProjects;
  const entries = await entriesOf(commits, jiraProjects === undefined ? {} : { jiraProjects }, ctx.signal);
  const sections = groupSections(entries);
  const markdown = renderMarkdown({ ...(version === undefined ? {} : { version }), ...(start.previous === undefined ? {} : { previous: start.previous }), skipped: start.skipped, sections });
  const repo = await resolveRepo(ctx, req.repo);
  let findings: Finding[] = [];
  let refsChecked = 0;
  if (!req.offline && req.tracker !== false) {
    // Jira is asked only when the project uses it (a Jira URL or project keys are configured); a
    // GitHub-only project's KEY-N look-alikes stay in the notes without warnings.
    const usesJira = ctx.config.jiraUrl !== undefined || (jiraProjects?.length ?? 0) > 0;
    const refs = trackerRefs(entries.flatMap((e) => e.refs), repo).filter((r) => r.kind === 'github' || usesJira);
    if (refs.length > 0) {
      const { lookUpRefs } = await import('../tracker/check.js');
      const { jiraAuth } = await import('../tracker/jira-auth.js');
      const { githubClient } = await import('../github/client.js');
      const { findGithubToken } = await import('../github/token.js');
      let octokit: ReturnType<typeof githubClient> | undefined;
      const github = (): ReturnType<typeof githubClient> =>
        (octokit ??= findGithubToken(ctx.env, ctx.config.githubApiUrl, ctx.out.redactor).then((token) =>
          githubClient({ baseUrl: ctx.config.githubApiUrl, http, ...(token === undefined ? {} : { token: token.value }) }),
        ));
      const auth = jiraAuth(ctx.env);
      // The basic form carries the token base64-encoded: masked like the token itself.
      if (auth !== undefined) ctx.out.redactor.add(auth.header.replace(/^\S+ /, ''));
      const results = await lookUpRefs(refs, { github, http, ...(ctx.config.jiraUrl === undefined ? {} : { jiraUrl: ctx.config.jiraUrl, jiraAuth: auth }) });
      findings = trackerFindings(results, req.strict);
      refsChecked = refs.length;
    }
  }
  return {
    ...(version === undefined ? {} : { version }),
    ...(tag === undefined ? {} : { tag }),
    ...(start.previous === undefined ? {} : { previous: start.previous }),
    skipped: start.skipped,
    sections,
    markdown,
    findings,
    refsChecked,
    ...(repo === undefined ? {} : { repo }),
    title: [id?.artifactId, version].filter((x) => x !== undefined).join(' ') || (tag ?? 'Unreleased'),
  };
}
