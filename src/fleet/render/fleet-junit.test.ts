import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { fleetReportOf, hostile, hostileFleet, uportalFleet, uportalRepositories } from '../../../test/helpers/fleet-report.js';
import { fleetJunit } from './fleet-junit.js';

interface Case {
  '@_classname': string;
  '@_name': string;
  failure?: { '@_type': string; '@_message': string; '#text': string };
  error?: { '@_type': string; '@_message': string; '#text': string };
  'system-out'?: string;
}
interface Suite {
  '@_name': string;
  '@_tests': string;
  '@_failures': string;
  '@_errors': string;
  testcase: Case[];
  'system-out'?: string;
}

function parse(xml: string): Suite {
  expect(XMLValidator.validate(xml)).toBe(true);
  const doc = new XMLParser({ ignoreAttributes: false, isArray: (name) => name === 'testcase' || name === 'testsuite' }).parse(xml) as { testsuites: { testsuite: Suite[] } };
  expect(doc.testsuites.testsuite).toHaveLength(1);
  return doc.testsuites.testsuite[0]!;
}

describe('fleetJunit', () => {
  it('is one suite with a test case per repository: blocked and waiting fail, error errs, the others pass', () => {
    const suite = parse(fleetJunit(uportalFleet()));
    expect(suite['@_name']).toBe('relctl fleet');
    expect([suite['@_tests'], suite['@_failures'], suite['@_errors']]).toEqual(['5', '2', '1']);
    expect(suite.testcase.map((c) => [c['@_classname'], c['@_name']])).toEqual(uportalRepositories().map((r) => ['fleet', r.name]));
    const [parent, child, ready, notPublished, error] = suite.testcase;

    expect(parent!.failure).toMatchObject({ '@_type': 'blocked', '@_message': 'blocked: legacy-staging-host' });
    expect(child!.failure).toMatchObject({ '@_type': 'waits-on-parent', '@_message': 'waits-on-parent: legacy-staging-host, missing-developers (fix in uPortal-Project/uportal-parent)' });
    expect(child!.failure!['#text']).toContain('error: missing-developers pom.xml:4: No <developers> in the POM or its parents: Maven Central requires at least one. (fix in uPortal-Project/uportal-parent)\nfix: Add <developers>');
    expect(error!.error).toMatchObject({ '@_type': 'error', '@_message': 'could not audit: clone-failed: git clone failed: Repository not found.' });
    for (const passing of [ready!, notPublished!]) {
      expect(passing.failure).toBeUndefined();
      expect(passing.error).toBeUndefined();
    }
    expect(notPublished!['system-out']).toBe('not-published; last release v5.16.1.0 (on Maven Central: no)');
    expect(suite['system-out']).toContain('environment (about this machine: they change no verdict):\nerror: signing-keyring-missing: No secret key');
  });

  it('escapes every value and drops what XML 1.0 cannot carry', () => {
    const report = hostileFleet();
    const evil = report.repositories[5]!;
    report.repositories[5] = { ...evil, findings: [{ ...evil.findings[0]!, message: `bad \uFFFE\uD800 ]]> "quoted" ${hostile.script}` }] };
    const xml = fleetJunit(report);
    expect(xml).not.toMatch(/[\uFFFE\uD800]|\]\]>|<script|<img/);
    const suite = parse(xml);
    const c = suite.testcase[5]!;
    expect(c['@_name']).toBe(hostile.name);
    expect(c.failure!['#text']).toContain(`bad  ]]> "quoted" ${hostile.script}`);
    // Quoted values stay on one line in the message and in each line of the body.
    expect(c.failure!['@_message']).not.toContain('\n');
    expect(suite.testcase[6]!['@_name']).toBe(hostile.longName);
  });

  it('is a suite with no test case for an empty fleet', () => {
    const suite = parse(fleetJunit(fleetReportOf([])));
    expect([suite['@_tests'], suite['@_failures'], suite['@_errors']]).toEqual(['0', '0', '0']);
    expect(suite.testcase).toBeUndefined();
  });
});
