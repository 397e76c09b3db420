/**
 * A `relctl fleet audit --json` document read back (DESIGN §13, `fleet report --from`): checked
 * field by field against the contract (report-types.ts, schema/fleet.schema.json) and rebuilt from
 * the known fields only. The documents come from CI artifacts, which anyone who can run the
 * workflow can write: a fixed-choice field (verdict, build, severity) that the renderers branch on
 * must be one of its values, a number a number, before any format sees it. Fields added by a later
 * relctl are dropped, not refused (the contract only ever adds fields). Pure.
 */
import { fleetSummary } from './report-document.js';
import { fleetVerdicts, type FleetEnvironmentFinding, type FleetFinding, type FleetFixPlan, type FleetParent, type FleetReport, type FleetRepositoryReport, type FleetVerdict } from './report-types.js';

class ShapeProblem extends Error {}

type Field = Record<string, unknown>;

function fail(at: string, expected: string): never {
  throw new ShapeProblem(`${at} must be ${expected}`);
}

function record(v: unknown, at: string): Field {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) fail(at, 'an object');
  return v as Field;
}

function text(v: unknown, at: string): string {
  return typeof v === 'string' ? v : fail(at, 'a string');
}

function name(v: unknown, at: string): string {
  return typeof v === 'string' && v !== '' ? v : fail(at, 'a repository name (OWNER/NAME)');
}

function count(v: unknown, at: string, min = 0): number {
  return typeof v === 'number' && Number.isInteger(v) && v >= min ? v : fail(at, `a whole number of ${min} or more`);
}

function choice<T extends string>(values: readonly T[]): (v: unknown, at: string) => T {
  return (v, at) => ((values as readonly unknown[]).includes(v) ? (v as T) : fail(at, `one of ${values.join(', ')}`));
}

function nullable<T>(check: (v: unknown, at: string) => T): (v: unknown, at: string) => T | null {
  return (v, at) => (v === null ? null : check(v, at));
}

function list<T>(v: unknown, at: string, check: (v: unknown, at: string) => T): T[] {
  if (!Array.isArray(v)) fail(at, 'a list');
  return v.map((item, i) => check(item, `${at}[${i}]`));
}

/** `{key: check(o.key)}` for an optional key, `{}` when the document leaves it out. */
function optional<K extends string, T>(o: Field, key: K, at: string, check: (v: unknown, at: string) => T): Partial<Record<K, T>> {
  return o[key] === undefined ? {} : ({ [key]: check(o[key], `${at}.${key}`) } as Record<K, T>);
}

const severity = choice(['error', 'warning'] as const);
const verdict = choice<FleetVerdict>(fleetVerdicts);
const build = choice(['maven', 'gradle', 'none'] as const);

function parent(v: unknown, at: string): FleetParent {
  const o = record(v, at);
  return { coordinates: text(o.coordinates, `${at}.coordinates`), repository: nullable(name)(o.repository, `${at}.repository`) };
}

/** What every finding says first, in the order --json prints it. */
function said(o: Field, at: string): Pick<FleetFinding, 'code' | 'severity' | 'message'> {
  return { code: text(o.code, `${at}.code`), severity: severity(o.severity, `${at}.severity`), message: text(o.message, `${at}.message`) };
}

function finding(v: unknown, at: string): FleetFinding {
  const o = record(v, at);
  return {
    ...said(o, at),
    ...optional(o, 'file', at, text),
    ...optional(o, 'line', at, (x, a) => count(x, a, 1)),
    ...optional(o, 'module', at, text),
    fix: text(o.fix, `${at}.fix`),
    ...optional(o, 'fixIn', at, name),
  };
}

function fixPlan(v: unknown, at: string): FleetFixPlan {
  const o = record(v, at);
  return { file: text(o.file, `${at}.file`), ...optional(o, 'line', at, (x, a) => count(x, a, 1)), code: text(o.code, `${at}.code`) };
}

function failure(v: unknown, at: string): NonNullable<FleetRepositoryReport['error']> {
  const o = record(v, at);
  return { code: text(o.code, `${at}.code`), message: text(o.message, `${at}.message`), ...optional(o, 'fix', at, text) };
}

function repository(v: unknown, at: string): FleetRepositoryReport {
  const o = record(v, at);
  const field = <T>(key: string, check: (v: unknown, at: string) => T): T => check(o[key], `${at}.${key}`);
  return {
    name: field('name', name),
    url: field('url', text),
    branch: field('branch', nullable(text)),
    head: field('head', nullable(text)),
    build: field('build', build),
    route: field('route', text),
    parents: list(o.parents, `${at}.parents`, parent),
    verdict: field('verdict', verdict),
    blocking: list(o.blocking, `${at}.blocking`, text),
    fixIn: list(o.fixIn, `${at}.fixIn`, name),
    findings: list(o.findings, `${at}.findings`, finding),
    fixes: list(o.fixes, `${at}.fixes`, fixPlan),
    lastRelease: field('lastRelease', nullable((x, a) => {
      const r = record(x, a);
      const source = r.source === undefined || r.source === 'portal' || r.source === 'public repository' ? r.source : fail(`${a}.source`, '"portal" or "public repository"');
      return {
        tag: text(r.tag, `${a}.tag`),
        version: text(r.version, `${a}.version`),
        published: r.published === null ? null : typeof r.published === 'boolean' ? r.published : fail(`${a}.published`, 'true, false or null'),
        ...(source === undefined ? {} : { source }),
        ...optional(r, 'page', a, text),
        ...optional(r, 'checked', a, text),
      };
    })),
    pullRequest: field('pullRequest', nullable((x, a) => {
      const p = record(x, a);
      return { url: text(p.url, `${a}.url`), number: count(p.number, `${a}.number`, 1), state: text(p.state, `${a}.state`) };
    })),
    rehearsal: field('rehearsal', nullable((x, a) => {
      const r = record(x, a);
      return { verdict: text(r.verdict, `${a}.verdict`), ...optional(r, 'version', a, text) };
    })),
    ...optional(o, 'error', at, failure),
  };
}

function environmentFinding(v: unknown, at: string): FleetEnvironmentFinding {
  const o = record(v, at);
  return {
    ...said(o, at),
    fix: text(o.fix, `${at}.fix`),
    repositories: list(o.repositories, `${at}.repositories`, name),
  };
}

function edge(v: unknown, at: string): { from: string; to: string } {
  const o = record(v, at);
  return { from: name(o.from, `${at}.from`), to: name(o.to, `${at}.to`) };
}

/**
 * The report a document holds, or the first thing wrong with it (`repositories[0].verdict must be
 * one of ...`): the path and what was expected, never the value (it may be anything).
 */
export function parseFleetReport(value: unknown): { report: FleetReport } | { problem: string } {
  try {
    const o = record(value, 'the document');
    if (typeof o.ok !== 'boolean') fail('ok', 'true or false');
    const summary = record(o.summary, 'summary');
    const verdicts = record(summary.verdicts, 'summary.verdicts');
    for (const v of fleetVerdicts) count(verdicts[v], `summary.verdicts.${v}`);
    count(summary.total, 'summary.total');
    const repositories = list(o.repositories, 'repositories', repository);
    const counted = Object.fromEntries(fleetVerdicts.map((v) => [v, verdicts[v]])) as Record<FleetVerdict, number>;
    // The plan is derived, never read: a document cannot make the dashboard say steps no audit found.
    const { nextSteps, releasesNeeded } = fleetSummary(repositories, counted, []);
    return {
      report: {
        ok: o.ok,
        repositories,
        summary: { total: summary.total as number, verdicts: counted, edges: list(summary.edges, 'summary.edges', edge), nextSteps, releasesNeeded },
        environment: list(o.environment, 'environment', environmentFinding),
      },
    };
  } catch (error) {
    if (error instanceof ShapeProblem) return { problem: error.message };
    throw error;
  }
}
