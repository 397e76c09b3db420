import { fleetReport } from '../../src/fleet/report-document.js';
import { blankReport, fleetVerdicts, type FleetFinding, type FleetReport, type FleetRepositoryReport } from '../../src/fleet/report-types.js';

/**
 * FleetReport builders for the fleet formats' tests (DESIGN §13): an ecosystem shaped like uPortal's
 * (a shared parent POM, children that inherit from it), every verdict, `fixIn`, environment
 * findings; the same with hostile values from repositories; and a 20-repository fleet for layout.
 */

const parentPom = 'org.jasig.parent:jasig-parent:91';

function repo(name: string, fields: Partial<FleetRepositoryReport>): FleetRepositoryReport {
  const base = blankReport(name, `https://github.com/${name}.git`);
  return { ...base, branch: 'master', head: '0123456789abcdef0123456789abcdef01234567', build: 'maven', route: 'staging-api', verdict: 'ready', ...fields };
}

const missingDevelopers = (fixIn?: string): FleetFinding => ({
  code: 'missing-developers',
  severity: 'error',
  message: 'No <developers> in the POM or its parents: Maven Central requires at least one.',
  file: 'pom.xml',
  line: 4,
  module: 'org.jasig.portal:uPortal',
  fix: 'Add <developers><developer><name>…</name></developer></developers>.',
  ...(fixIn === undefined ? {} : { fixIn }),
});

const legacyStaging = (fixIn?: string): FleetFinding => ({
  code: 'legacy-staging-host',
  severity: 'error',
  message: 'distributionManagement deploys to oss.sonatype.org, which no longer accepts uploads.',
  file: 'pom.xml',
  line: 120,
  fix: 'Deploy through the Central Publisher Portal (its staging API at ossrh-staging-api.central.sonatype.com).',
  ...(fixIn === undefined ? {} : { fixIn }),
});

/** Parents first: a parent (blocked), a child waiting on it, a ready one, one that publishes nothing, one that failed. */
export function uportalRepositories(): FleetRepositoryReport[] {
  const parent = 'uPortal-Project/uportal-parent';
  const inherits = { coordinates: parentPom, repository: parent };
  return [
    repo(parent, {
      parents: [{ coordinates: 'org.sonatype.oss:oss-parent:9', repository: null }],
      verdict: 'blocked',
      blocking: ['legacy-staging-host'],
      findings: [legacyStaging(), { code: 'plugin-version-missing', severity: 'warning', message: 'maven-gpg-plugin has no version.', file: 'pom.xml', line: 88, fix: 'Pin maven-gpg-plugin 3.2.7.' }],
      fixes: [{ file: 'pom.xml', line: 120, code: 'legacy-staging-host' }],
      lastRelease: { tag: 'jasig-parent-91', version: '91', published: true },
      pullRequest: { url: 'https://github.com/uPortal-Project/uportal-parent/pull/42', number: 42, state: 'open' },
    }),
    repo('uPortal-Project/uPortal', {
      build: 'gradle',
      route: 'portal-plugin',
      parents: [inherits],
      verdict: 'waits-on-parent',
      blocking: ['legacy-staging-host', 'missing-developers'],
      fixIn: [parent],
      findings: [legacyStaging(parent), missingDevelopers(parent)],
      lastRelease: { tag: 'v5.16.1', version: '5.16.1', published: null },
    }),
    repo('uPortal-Project/resource-server', {
      parents: [inherits],
      lastRelease: { tag: 'resource-server-1.5.0', version: '1.5.0', published: true },
      rehearsal: { verdict: 'VALIDATED', version: '1.5.1' },
    }),
    repo('uPortal-Project/uPortal-start', {
      build: 'gradle',
      route: 'none',
      parents: [],
      verdict: 'not-published',
      lastRelease: { tag: 'v5.16.1.0', version: '5.16.1.0', published: false },
    }),
    repo('uPortal-Project/NotificationPortlet', {
      head: null,
      branch: null,
      build: 'none',
      route: 'none',
      verdict: 'error',
      error: { code: 'clone-failed', message: 'git clone failed: Repository not found.', fix: 'Check the name and the token’s access to it.' },
    }),
  ];
}

/** Values a repository controls, as hostile as they come: workflow commands, HTML, Markdown, controls. */
export const hostile = {
  developer: 'Jane Doe\n::error::x',
  script: '<script>alert(1)</script>',
  name: 'evil-org/<img src=x onerror=alert(1)>|`x`',
  longName: `uPortal-Project/${'very-long-repository-name-'.repeat(8)}end`,
} as const;

/** The uPortal fleet plus two repositories whose values try to break every format. */
export function hostileRepositories(): FleetRepositoryReport[] {
  const parent = 'uPortal-Project/uportal-parent';
  return [
    ...uportalRepositories(),
    repo(hostile.name, {
      url: 'https://git.example.invalid/evil.git',
      parents: [{ coordinates: `org.evil:parent:1\r\n::warning::${hostile.script}`, repository: parent }],
      route: 'staging-api | [click](javascript:alert(1))',
      verdict: 'blocked',
      blocking: ['developers-incomplete', 'missing-developers'],
      fixIn: [parent],
      findings: [
        {
          code: 'developers-incomplete',
          severity: 'error',
          message: `Developer "${hostile.developer}" has no email ${hostile.script} & <b>|</b> \x1b[31mred\x1b[0m \u202eevil\x07 ![img](https://tracker.example.invalid/p.png) @octocat #1`,
          file: 'pom.xml\n::error file=x::y',
          line: 9,
          fix: 'Add an <email> to every developer.',
        },
        missingDevelopers(parent),
      ],
      lastRelease: { tag: 'v1|<i>2</i>', version: '1', published: false },
      pullRequest: { url: 'javascript:alert(1)', number: 3, state: 'open' },
    }),
    repo(hostile.longName, {
      parents: [{ coordinates: parentPom, repository: parent }],
      verdict: 'ready',
      lastRelease: null,
    }),
  ];
}

/** Counts and child → parent edges (each repository's nearest parent that the fleet builds). */
export function fleetReportOf(repositories: FleetRepositoryReport[], environment: FleetReport['environment'] = []): FleetReport {
  const edges = repositories.flatMap((r) => {
    const parent = r.parents.find((p) => p.repository !== null);
    return parent?.repository == null ? [] : [{ from: r.name, to: parent.repository }];
  });
  return fleetReport(repositories, edges, environment);
}

export const environmentFindings: FleetReport['environment'] = [
  {
    code: 'signing-keyring-missing',
    severity: 'error',
    message: 'No secret key in the gpg keyring of this machine.',
    fix: 'Import the release key (relctl keys import) or set RELCTL_GPG_KEY.',
    repositories: ['uPortal-Project/uportal-parent', 'uPortal-Project/uPortal', 'uPortal-Project/resource-server', 'uPortal-Project/uPortal-start'],
  },
  { code: 'missing-credentials', severity: 'warning', message: 'No Central Portal token in the environment.', fix: 'Set RELCTL_PORTAL_TOKEN.', repositories: ['uPortal-Project/uPortal'] },
];

/** The uPortal fleet: the README's example. */
export function uportalFleet(): FleetReport {
  return fleetReportOf(uportalRepositories(), environmentFindings);
}

/** The uPortal fleet with hostile values (and a hostile environment finding). */
export function hostileFleet(): FleetReport {
  const environment = [...environmentFindings, { code: 'dirty-worktree', severity: 'warning' as const, message: `Working copy changed by ${hostile.developer} ${hostile.script}`, fix: 'Commit | stash.', repositories: [hostile.name] }];
  return fleetReportOf(hostileRepositories(), environment);
}

/**
 * `size` repositories in three layers: one parent, two mid-level parents, and the rest children of
 * those, verdicts in turn, so that the widest layer must wrap.
 */
export function largeFleet(size = 20): FleetReport {
  const top = 'org/parent';
  const mids = ['org/portlet-parent', 'org/web-parent'];
  const repos = [repo(top, {}), ...mids.map((m) => repo(m, { parents: [{ coordinates: `org.ex:parent:1`, repository: top }] }))];
  for (let i = repos.length; i < size; i++) {
    const mid = mids[i % 2]!;
    const verdict = fleetVerdicts[i % fleetVerdicts.length]!;
    repos.push(repo(`org/component-${String(i).padStart(2, '0')}`, { verdict, parents: [{ coordinates: `org.ex:${mid.slice(4)}:2`, repository: mid }] }));
  }
  return fleetReportOf(repos);
}

/**
 * `size` repositories shaped like a large real ecosystem, findings and all (issue 43: the
 * dashboard measured at 500): a parent every other repository inherits from (blocked: a retired
 * host and no <developers>), a third of the children waiting on it, a third blocked by fixes of
 * their own, the rest ready with two warnings each.
 */
export function bigFleet(size = 500): FleetReport {
  const parent = 'bigorg/big-parent';
  const repos = [
    repo(parent, { verdict: 'blocked', blocking: ['legacy-staging-host', 'missing-developers'], findings: [legacyStaging(), missingDevelopers()], fixes: [{ file: 'pom.xml', line: 120, code: 'legacy-staging-host' }], lastRelease: { tag: 'big-parent-41', version: '41', published: true } }),
  ];
  const warning = (n: number): FleetFinding => ({ code: 'plugin-version-missing', severity: 'warning', message: `maven-plugin-${n} has no version: the build may change under you.`, file: 'pom.xml', line: 60 + n, fix: `Pin maven-plugin-${n} to its current version.` });
  for (let i = 1; i < size; i++) {
    const name = `bigorg/component-with-a-long-name-${String(i).padStart(3, '0')}`;
    const parents = [{ coordinates: 'org.big:big-parent:41', repository: parent }];
    const base = { parents, lastRelease: { tag: `v1.${i}.0`, version: `1.${i}.0`, published: i % 2 === 0 }, pullRequest: { url: `https://github.com/${name}/pull/${i}`, number: i, state: 'open' } };
    if (i % 3 === 0) repos.push(repo(name, { ...base, verdict: 'waits-on-parent', blocking: ['legacy-staging-host', 'missing-developers'], fixIn: [parent], findings: [legacyStaging(parent), missingDevelopers(parent)] }));
    else if (i % 3 === 1) repos.push(repo(name, { ...base, verdict: 'blocked', blocking: ['legacy-staging-host'], findings: [legacyStaging(), warning(1)], fixes: [{ file: 'pom.xml', line: 120, code: 'legacy-staging-host' }] }));
    else repos.push(repo(name, { ...base, findings: [warning(1), warning(2)] }));
  }
  return fleetReportOf(repos, environmentFindings);
}
