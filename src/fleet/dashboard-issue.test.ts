import { describe, expect, it } from 'vitest';
import { planDashboard, type ListedIssue } from './dashboard-issue.js';

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
