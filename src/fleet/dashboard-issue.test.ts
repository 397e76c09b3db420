import { describe, expect, it } from 'vitest';
import { uportalFleet } from '../../test/helpers/fleet-report.js';
import { DashboardIssue, dashboardBody, issueBodyLimit, planDashboard, type ListedIssue } from './dashboard-issue.js';
import { fleetMarkdown } from './render/fleet-markdown.js';

describe('planDashboard', () => {
  const body = '# relctl fleet readiness\n';
  const issue = (number: number, fields: Partial<ListedIssue> = {}): ListedIssue => ({ number, url: `https://github.com/o/r/issues/${number}`, state: 'open', title: 'relctl fleet readiness', body, author: 'bot', pullRequest: false, ...fields });

  it('creates when the token\'s user has no such issue; another user\'s or another title is not it', () => {
    expect(planDashboard([issue(1, { author: 'mallory' }), issue(2, { title: 'relctl fleet readiness!' }), issue(3, { pullRequest: true })], 'bot', body)).toEqual({ action: 'create' });
  });

  it('edits the newest open one; leaves an identical body alone (a browser\'s CRLF included); reopens the newest closed one', () => {
    expect(planDashboard([issue(4, { body: 'old' }), issue(9, { body: 'older', state: 'closed' })], 'Bot', body)).toMatchObject({ action: 'edit', issue: { number: 4 } });
    expect(planDashboard([issue(4, { body: body.replace('\n', '\r\n') })], 'bot', body)).toMatchObject({ action: 'unchanged', issue: { number: 4 } });
    expect(planDashboard([issue(3, { state: 'closed' }), issue(7, { state: 'closed' })], 'bot', body)).toMatchObject({ action: 'reopen', issue: { number: 7 } });
  });
});

describe('DashboardIssue with an app\'s installation token (GITHUB_TOKEN)', () => {
  /** An Octokit as far as DashboardIssue uses it: GET /user refused as GitHub refuses it to an app, a `creator` filter that knows no bot. */
  function fakeGithub(issues: Record<string, unknown>[]) {
    const calls: string[] = [];
    const answer = (data: unknown) => ({ status: 200, headers: {}, data });
    const gh = {
      rest: {
        users: {
          getAuthenticated: async () => {
            calls.push('GET /user');
            throw Object.assign(new Error('Resource not accessible by integration'), { status: 403, response: { headers: { 'x-ratelimit-remaining': '999' }, data: { message: 'Resource not accessible by integration' } } });
          },
        },
        issues: {
          listForRepo: async (p: { creator?: string }) => {
            calls.push(`GET issues${p.creator === undefined ? '' : ` creator=${p.creator}`}`);
            return answer(p.creator === undefined ? issues : []);
          },
          create: async () => {
            calls.push('POST issue');
            return answer({ number: 9, html_url: 'https://github.com/o/r/issues/9' });
          },
          update: async (p: { issue_number: number }) => {
            calls.push(`PATCH issue ${p.issue_number}`);
            return answer({ number: p.issue_number, html_url: `https://github.com/o/r/issues/${p.issue_number}` });
          },
        },
      },
      graphql: async () => {
        calls.push('graphql viewer');
        return { viewer: { login: 'github-actions[bot]' } };
      },
    };
    return { gh: gh as unknown as Parameters<typeof DashboardIssue.open>[0], calls };
  }
  const issueJson = (number: number, login: string) => ({ number, html_url: `https://github.com/o/r/issues/${number}`, state: 'open', title: 'relctl fleet readiness', body: 'old', user: { login } });

  it('takes the login from GraphQL\'s viewer, and finds its issue even when the creator filter does not know the bot', async () => {
    const { gh, calls } = fakeGithub([issueJson(5, 'github-actions[bot]'), issueJson(3, 'mallory')]);
    const dashboard = await DashboardIssue.open(gh, { owner: 'o', name: 'r' }, true, { log: () => undefined });
    expect(dashboard.login).toBe('github-actions[bot]');
    expect(await dashboard.sync('# relctl fleet readiness\n', false)).toEqual({ action: 'edit', repository: 'o/r', number: 5, url: 'https://github.com/o/r/issues/5', dryRun: false });
    expect(calls).toEqual(['GET /user', 'graphql viewer', 'GET issues creator=github-actions[bot]', 'GET issues', 'PATCH issue 5']);
  });
});

describe('dashboardBody', () => {
  it('is the Markdown report; one too long for an issue keeps its table and says where the findings are', () => {
    const small = uportalFleet();
    expect(dashboardBody(small, (t) => t)).toBe(fleetMarkdown(small));
    const many = uportalFleet();
    const long = { ...many.repositories[0]!.findings[0]!, message: 'x'.repeat(70_000) };
    const big = { ...many, repositories: [{ ...many.repositories[0]!, findings: [long] }, ...many.repositories.slice(1)] };
    const body = dashboardBody(big, (t) => t);
    expect(body.length).toBeLessThanOrEqual(issueBodyLimit);
    expect(body).toContain('| uPortal-Project/uportal-parent |');
    expect(body).not.toContain('## Not ready');
    expect(body).toContain('relctl fleet audit --format html');
  });
});
