import { describe, expect, it } from 'vitest';
import { validateConfigFile } from './resolve.js';
import { sectionDefault } from './sections.js';

describe('post-release config sections', () => {
  it('normalises addresses and commands', () => {
    const r = validateConfigFile({
      distribution: { repo: 'apereo/uPortal-start', smoke: { start: './gradlew tomcatStart', stop: ['sh', '-c', 'echo stop'], deadline: 60 } },
      mail: { from: 'a@example.org', dev: 'dev@example.org', user: ['u1@example.org', ' u2@example.org '] },
    });
    expect(r.problems).toEqual([]);
    expect(r.sections).toEqual({
      distribution: { repo: 'apereo/uPortal-start', smoke: { start: ['./gradlew', 'tomcatStart'], stop: ['sh', '-c', 'echo stop'], deadline: 60 } },
      mail: { from: 'a@example.org', dev: ['dev@example.org'], user: ['u1@example.org', 'u2@example.org'] },
    });
  });

  it('reports every problem, and refuses secrets in the file', () => {
    const r = validateConfigFile({ mail: { dev: 'not-an-address', password: 'x' }, distribution: { smoke: { deadline: 0, healthUrl: 'ftp://x' }, imag: {} } });
    expect(r.problems.map((p) => p.message)).toEqual([
      'mail.dev "not-an-address" is not an e-mail address',
      'mail.password is not a known key (known: from, dev, user, announce, noticeWorkingDays); secrets do not belong in a committed file (RELCTL_* variables: see docs/configuration.md)',
      'distribution.smoke.deadline must be a whole number of 1 or more',
      'distribution.smoke.healthUrl must be an http or https URL',
      'distribution.imag is not a known key (known: repo, property, smoke, image)',
    ]);
  });

  it('has the uPortal-start defaults', () => {
    expect(sectionDefault('distribution.smoke.deploy')).toEqual(['./gradlew', 'clean', 'tomcatDeploy']);
    expect(sectionDefault('distribution.smoke.deadline')).toBe(300);
    expect(sectionDefault('mail.noticeWorkingDays')).toBe(2);
  });
});
