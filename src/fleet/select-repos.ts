/**
 * The selection of a fleet command (DESIGN §13): `--repos FILE` and `--org OWNER` (merged when both
 * are given), else the `fleet` section of relctl.config.json; then `--only`. Reads the file and
 * asks the host; the rules are selection.ts's.
 */
import path from 'node:path';
import { UsageError } from '../core/errors.js';
import type { FleetConfig } from '../core/config/sections.js';
import type { CommandContext } from '../io/command-context.js';
import { readDescriptor } from '../io/descriptor.js';
import { filterListed, mergeSelections, onlyOne, parseRepoLines, type FleetRepo, type OrgFilter } from './selection.js';
import { resolveRepoUrl } from './workspace.js';

/** The selection flags: the config section's filters, a repos file and --only. */
export type SelectionFlags = Pick<FleetConfig, 'org' | 'topic' | 'include' | 'exclude' | 'archived' | 'forks'> & { repos?: string; only?: string };

export interface Selection {
  /** Every selected repository (with --only too: the fleet's parents are read from them). */
  repos: FleetRepo[];
  /** `--only`: the one repository to work on. */
  only?: FleetRepo;
  /** Set when the host's API was asked (its session's token then also clones). */
  listedByHost: boolean;
}

/** Lists owners' repositories through the host's API; the caller opens the session. */
export type OwnerLister = (owner: string) => Promise<import('./selection.js').ListedRepo[]>;

function regexOption(flag: string, value: string | undefined): RegExp | undefined {
  if (value === undefined) return undefined;
  try {
    return new RegExp(value);
  } catch (error) {
    throw new UsageError(`${flag} ${value} is not a valid regular expression: ${(error as Error).message}.`, { kind: 'bad-option', fix: `Pass a JavaScript regular expression to ${flag}, e.g. '^apereo/uPortal'.` });
  }
}

function readReposFile(file: string, cwd: string): FleetRepo[] {
  const abs = path.resolve(cwd, file);
  const read = readDescriptor(abs);
  if (!read.ok) throw new UsageError(`--repos ${file}: ${read.problem === 'missing' ? 'no such file' : read.reason}.`, { kind: 'bad-repos-file', fix: 'Pass a text file with one OWNER/NAME (or OWNER/NAME URL) a line.' });
  const parsed = parseRepoLines(read.text, `${file} line`);
  if (parsed.problems.length > 0) {
    throw new UsageError(`--repos ${file} has ${parsed.problems.length === 1 ? 'a bad line' : `${parsed.problems.length} bad lines`}: ${parsed.problems.slice(0, 5).join('; ')}.`, {
      kind: 'bad-repos-file',
      fix: 'Write one repository a line: OWNER/NAME, or OWNER/NAME followed by a git URL or a local path; # starts a comment.',
    });
  }
  const base = path.dirname(abs);
  return parsed.repos.map((r) => (r.url === undefined ? r : { ...r, url: resolveRepoUrl(r.url, base) }));
}

export async function selectRepos(ctx: CommandContext, flags: SelectionFlags, listOwner: () => Promise<OwnerLister>): Promise<Selection> {
  const fromFlags = flags.repos !== undefined || (flags.org ?? []).length > 0;
  const config: FleetConfig = fromFlags ? {} : (ctx.config.fleet ?? {});
  const lists: FleetRepo[][] = [];
  if (flags.repos !== undefined) lists.push(readReposFile(flags.repos, ctx.cwd));
  if (config.repos !== undefined) {
    const parsed = parseRepoLines(config.repos.join('\n'), 'fleet.repos entry');
    if (parsed.problems.length > 0) throw new UsageError(`relctl.config.json: ${parsed.problems.join('; ')}.`, { kind: 'invalid-config', fix: 'List each repository once in fleet.repos.' });
    lists.push(parsed.repos.map((r) => (r.url === undefined ? r : { ...r, url: resolveRepoUrl(r.url, ctx.cwd) })));
  }
  const owners = fromFlags ? (flags.org ?? []) : (config.org ?? []);
  if (owners.length > 0) {
    const filter: OrgFilter = {
      archived: flags.archived ?? config.archived ?? false,
      forks: flags.forks ?? config.forks ?? false,
      ...(flags.topic ?? config.topic) === undefined ? {} : { topic: (flags.topic ?? config.topic)! },
    };
    const include = regexOption('--include', flags.include ?? config.include);
    const exclude = regexOption('--exclude', flags.exclude ?? config.exclude);
    if (include !== undefined) filter.include = include;
    if (exclude !== undefined) filter.exclude = exclude;
    const lister = await listOwner();
    for (const owner of owners) lists.push(filterListed(await lister(owner), filter));
  }
  if (lists.length === 0) {
    throw new UsageError('No repositories selected.', {
      kind: 'no-repositories',
      fix: 'Pass --repos FILE (one OWNER/NAME a line) or --org OWNER, or add a "fleet" section with "repos" or "org" to relctl.config.json.',
    });
  }
  const repos = mergeSelections(...lists);
  if (repos.length === 0) {
    if (owners.length === 0) {
      // Only lists were given, and they hold no line: the filters are not the cause.
      const where = flags.repos !== undefined ? `--repos ${flags.repos}` : 'fleet.repos in relctl.config.json';
      throw new UsageError(`The selection is empty: ${where} lists no repository.`, { kind: 'no-repositories', fix: 'Write one repository a line: OWNER/NAME, or OWNER/NAME followed by a git URL or a local path; # starts a comment.' });
    }
    throw new UsageError(`The selection is empty: ${owners.join(', ')} list${owners.length === 1 ? 's' : ''} no repository that the filters keep.`, { kind: 'no-repositories', fix: 'Check --topic, --include and --exclude; archived repositories and forks need --archived and --forks.' });
  }
  if (flags.only === undefined) return { repos, listedByHost: owners.length > 0 };
  const one = onlyOne(repos, flags.only);
  if ('problem' in one) throw new UsageError(`${one.problem}.`, { kind: 'bad-option', fix: 'Run relctl fleet list to see the selected repositories.' });
  return { repos, only: one, listedByHost: owners.length > 0 };
}
