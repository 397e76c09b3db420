import type { CheckReport, Finding } from '../../core/findings.js';
import { groupOf } from '../../core/finding-groups.js';

/** A `<testsuite>`: the check codes that ran in it, and the modules each ran for when known. */
export interface JunitSuite {
  name: string;
  codes: readonly string[];
  /** Every module the codes ran for (verify: the component); else the modules with findings. */
  modules?: readonly string[];
}

const project = '(project)';

/**
 * JUnit XML for Jenkins and GitLab test reports (DESIGN §3). One `<testcase classname=MODULE
 * name=CODE>` per check and module: it fails (one `<failure type=CODE>` listing every error
 * finding of that code in that module: JUnit counts failed tests, and Jenkins and GitLab show one
 * failure per test case) when there are errors. Warnings do not fail a test (a `<failure>` would
 * fail a Jenkins build that relctl itself passes): they go to the test case's `<system-out>`.
 * A check that ran without findings is one passing test case; skipped checks are `<skipped>`.
 */
export function findingsJunit(report: CheckReport, name: string, plan: readonly JunitSuite[], failure?: string): string {
  const suites = completePlan(report, plan);
  const blocks = suites.map((s) => suiteXml(report, s));
  // A run that could not ask a service (exit 3) is an errored test: the audit is incomplete.
  if (failure !== undefined) blocks.push(errorSuite(failure));
  const totals = blocks.reduce((t, b) => ({ tests: t.tests + b.tests, failures: t.failures + b.failures, skipped: t.skipped + b.skipped }), { tests: 0, failures: 0, skipped: 0 });
  const errors = failure === undefined ? 0 : 1;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name=${attr(name)} tests="${totals.tests}" failures="${totals.failures}" errors="${errors}">`,
    ...blocks.map((b) => b.xml),
    '</testsuites>',
    '',
  ].join('\n');
}

function errorSuite(failure: string): { xml: string; tests: number; failures: number; skipped: number } {
  const xml = [
    '  <testsuite name="service-unreachable" tests="1" failures="0" errors="1" skipped="0">',
    `    <testcase classname="${project}" name="service-unreachable">`,
    `      <error type="service-unreachable" message=${attr(failure.split('\n')[0]!)}>${text(failure)}</error>`,
    '    </testcase>',
    '  </testsuite>',
  ].join('\n');
  return { xml, tests: 1, failures: 0, skipped: 0 };
}

/** Every finding and skipped check lands in some suite: its group's, else a last `other` one. */
function completePlan(report: CheckReport, plan: readonly JunitSuite[]): JunitSuite[] {
  const suites = plan.map((s) => ({ ...s, codes: [...s.codes] }));
  const placed = new Set(suites.flatMap((s) => s.codes));
  const loose = [...report.findings.map((f) => f.code), ...(report.skipped ?? []).map((s) => s.check)];
  for (const code of loose) {
    if (placed.has(code)) continue;
    placed.add(code);
    const home = groupOf(code) ?? 'other';
    let suite = suites.find((s) => s.name === home);
    if (suite === undefined) suites.push((suite = { name: home, codes: [] }));
    suite.codes.push(code);
  }
  return suites.filter((s) => s.codes.length > 0);
}

function suiteXml(report: CheckReport, suite: JunitSuite): { xml: string; tests: number; failures: number; skipped: number } {
  const cases: string[] = [];
  let failures = 0;
  let skippedCount = 0;
  for (const code of suite.codes) {
    const findings = report.findings.filter((f) => f.code === code);
    const skipped = (report.skipped ?? []).filter((s) => s.check === code);
    const modules = [...new Set([...(suite.modules ?? []), ...findings.map((f) => f.module ?? project)])];
    // A check with no finding and no skip entry ran and passed for the project as a whole.
    if (modules.length === 0 && skipped.length === 0) modules.push(project);
    for (const module of modules) {
      const own = findings.filter((f) => (f.module ?? project) === module);
      const skip = skipped.find((s) => (s.module ?? project) === module);
      if (skip !== undefined && own.length === 0) {
        skippedCount++;
        cases.push(`    <testcase classname=${attr(module)} name=${attr(code)}>\n      <skipped message=${attr(skip.why)}/>\n    </testcase>`);
        continue;
      }
      const errors = own.filter((f) => f.severity === 'error');
      const warnings = own.filter((f) => f.severity !== 'error');
      const body: string[] = [];
      if (errors.length > 0) {
        failures++;
        const message = errors.length === 1 ? errors[0]!.message : `${errors.length} findings: ${errors[0]!.message}`;
        body.push(`      <failure type=${attr(code)} message=${attr(message)}>${text(errors.map(describe).join('\n\n'))}</failure>`);
      }
      if (warnings.length > 0) body.push(`      <system-out>${text(warnings.map((w) => `warning: ${describe(w)}`).join('\n\n'))}</system-out>`);
      const open = `    <testcase classname=${attr(module)} name=${attr(code)}`;
      cases.push(body.length === 0 ? `${open}/>` : `${open}>\n${body.join('\n')}\n    </testcase>`);
    }
    // Skips for modules the plan did not list (the check was skipped there only).
    for (const s of skipped) {
      const module = s.module ?? project;
      if (modules.includes(module)) continue;
      skippedCount++;
      cases.push(`    <testcase classname=${attr(module)} name=${attr(code)}>\n      <skipped message=${attr(s.why)}/>\n    </testcase>`);
    }
  }
  const tests = cases.length;
  const head = `  <testsuite name=${attr(suite.name)} tests="${tests}" failures="${failures}" errors="0" skipped="${skippedCount}">`;
  return { xml: [head, ...cases, '  </testsuite>'].join('\n'), tests, failures, skipped: skippedCount };
}

function describe(f: Finding): string {
  const where = f.file === undefined ? '' : `${f.file}${f.line === undefined ? '' : `:${f.line}`}: `;
  return `${where}${f.message}\nfix: ${f.fix}`;
}

/**
 * Characters XML 1.0 does not allow at all (C0 controls but tab/LF/CR, lone surrogates, U+FFFE/F):
 * no escape can carry them, so they are dropped.
 */
const notXml = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Element text. `>` is escaped too, so a message holding `]]>` stays well-formed. */
export function text(s: string): string {
  return s.replace(notXml, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A quoted attribute value; line breaks and tabs as character references so parsers keep them. */
export function attr(s: string): string {
  return `"${text(s).replace(/"/g, '&quot;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;')}"`;
}
