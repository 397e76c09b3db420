import { describe, expect, it } from 'vitest';
import { environmentFindings, fleetReportOf, hostileFleet, uportalFleet, uportalRepositories } from '../../test/helpers/fleet-report.js';
import { mergeFleetReports } from './merge-reports.js';
import { parentsFirst } from './pom-index.js';
import { fleetMarkdown } from './render/fleet-markdown.js';
import { parseFleetReport } from './report-shape.js';
import type { FleetReport } from './report-types.js';

/** What `fleet audit --only NAME --json` gives for each repository of a whole report: its row, its edges, its machine findings. */
function perRepository(whole: FleetReport): FleetReport[] {
  return whole.repositories.map((r) => {
    const environment = whole.environment.filter((e) => e.repositories.includes(r.name)).map((e) => ({ ...e, repositories: [r.name] }));
    const doc = fleetReportOf([r], environment);
    return { ...doc, summary: { ...doc.summary, edges: whole.summary.edges.filter((e) => e.from === r.name || e.to === r.name) } };
  });
}

describe('mergeFleetReports', () => {
  it('rebuilds the whole report from one document per repository, in any order: same Markdown', () => {
    const whole = uportalFleet();
    const docs = perRepository(whole).reverse();
    const { report, duplicates } = mergeFleetReports(docs);
    expect(duplicates).toEqual([]);
    const order = parentsFirst(whole.repositories.map((r) => r.name), whole.summary.edges);
    expect(report.repositories.map((r) => r.name)).toEqual(order);
    // The machine's findings as a one-process audit lists them: by code, their repositories sorted.
    const environment = whole.environment.map((e) => ({ ...e, repositories: [...e.repositories].sort() })).sort((a, b) => a.code.localeCompare(b.code));
    expect(fleetMarkdown(report)).toBe(fleetMarkdown(fleetReportOf(order.map((n) => whole.repositories.find((r) => r.name === n)!), environment)));
    expect(report.summary.verdicts).toEqual(whole.summary.verdicts);
    expect(report.ok).toBe(false);
  });

  it('puts parents first by the union of the edges, whatever the documents\' order', () => {
    const [parent, child, ...rest] = uportalRepositories();
    const docs = [fleetReportOf([child!]), ...rest.map((r) => fleetReportOf([r])), fleetReportOf([parent!])];
    const { report } = mergeFleetReports(docs);
    const names = report.repositories.map((r) => r.name);
    expect(names.indexOf(parent!.name)).toBeLessThan(names.indexOf(child!.name));
    expect(report.summary.edges).toContainEqual({ from: child!.name, to: parent!.name });
  });

  it('keeps each repository once (the first document), and drops edges to a repository no document holds', () => {
    const [parent, child] = uportalRepositories();
    const again = { ...parent!, verdict: 'ready' as const, blocking: [] };
    const { report, duplicates } = mergeFleetReports([fleetReportOf([parent!]), fleetReportOf([again]), fleetReportOf([child!])]);
    expect(duplicates).toEqual([parent!.name]);
    expect(report.repositories.find((r) => r.name === parent!.name)!.verdict).toBe('blocked');
    expect(mergeFleetReports([fleetReportOf([child!])]).report.summary.edges).toEqual([]);
  });

  it('merges the machine\'s findings by code and fix, the repositories unioned and sorted', () => {
    const [parent, child] = uportalRepositories();
    const one = environmentFindings[0]!;
    const { report } = mergeFleetReports([fleetReportOf([child!], [{ ...one, repositories: [child!.name] }]), fleetReportOf([parent!], [{ ...one, message: 'said in the parent', repositories: [parent!.name] }])]);
    expect(report.environment).toEqual([{ ...one, message: 'said in the parent', repositories: [parent!.name, child!.name].sort() }]);
  });
});

describe('parseFleetReport', () => {
  it('takes back what --json prints, hostile values included, and renders the same bytes', () => {
    const whole = hostileFleet();
    const parsed = parseFleetReport(JSON.parse(JSON.stringify({ ...whole, error: { code: 'fleet-not-ready', message: 'x' } })));
    expect('report' in parsed && fleetMarkdown(parsed.report)).toBe(fleetMarkdown(whole));
  });

  it('names the first field that breaks the contract, never its value', () => {
    const doc = JSON.parse(JSON.stringify(uportalFleet())) as Record<string, any>;
    const broken = (edit: (d: Record<string, any>) => void): string => {
      const copy = JSON.parse(JSON.stringify(doc)) as Record<string, any>;
      edit(copy);
      const r = parseFleetReport(copy);
      return 'problem' in r ? r.problem : 'accepted';
    };
    expect(broken((d) => (d.repositories[1].verdict = '<script>'))).toBe('repositories[1].verdict must be one of ready, blocked, waits-on-parent, not-published, error');
    expect(broken((d) => (d.repositories[0].findings[0].severity = 'fatal'))).toBe('repositories[0].findings[0].severity must be one of error, warning');
    expect(broken((d) => (d.repositories[0].build = 'ant'))).toContain('repositories[0].build must be one of');
    expect(broken((d) => (d.repositories[0].pullRequest.number = '42'))).toBe('repositories[0].pullRequest.number must be a whole number of 1 or more');
    expect(broken((d) => delete d.repositories[2].lastRelease)).toBe('repositories[2].lastRelease must be an object');
    expect(broken((d) => (d.summary.verdicts.ready = -1))).toBe('summary.verdicts.ready must be a whole number of 0 or more');
    expect(broken((d) => (d.environment = {}))).toBe('environment must be a list');
    expect(broken((d) => (d.ok = 'yes'))).toBe('ok must be true or false');
    expect(parseFleetReport([])).toEqual({ problem: 'the document must be an object' });
    // A field a later relctl adds is dropped, not refused.
    expect(broken((d) => (d.repositories[0].newField = 1))).toBe('accepted');
  });
});
