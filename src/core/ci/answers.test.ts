import { describe, expect, it } from 'vitest';
import { ciHostOf } from './answers.js';

describe('ciHostOf', () => {
  const none = { hasGitlabCi: false, hasGithubWorkflows: false };
  it('reads the origin host only, and says it without the credentials', () => {
    expect(ciHostOf({ ...none, originUrl: 'https://ci:tok3n@gitlab.example.org/team/github-mirror.git' })).toEqual({ host: 'gitlab', why: 'origin is https://gitlab.example.org/team/github-mirror' });
    expect(ciHostOf({ ...none, originUrl: 'git@github.com:o/r.git' })).toEqual({ host: 'github', why: 'origin is https://github.com/o/r' });
  });
  it('falls back to the CI files the repository has, else knows nothing', () => {
    expect(ciHostOf({ originUrl: 'https://git.example.org/o/r.git', hasGitlabCi: true, hasGithubWorkflows: true })?.host).toBe('gitlab');
    expect(ciHostOf({ hasGitlabCi: false, hasGithubWorkflows: true })?.host).toBe('github');
    expect(ciHostOf(none)).toBeUndefined();
  });
});
