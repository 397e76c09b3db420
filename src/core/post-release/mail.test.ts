import { describe, expect, it } from 'vitest';
import { announceMail, prereleaseMail, publicRepositoryName, socialPost, type ReleaseFacts } from './mail.js';

const facts = (notes: string, artifactId = 'notification-portlet'): ReleaseFacts => ({
  groupId: 'org.jasig.portlet.notification',
  artifactId,
  version: '5.1.0',
  previous: '5.0.0',
  notes,
  repositoryUrl: 'https://repo1.maven.org/maven2/org/jasig/portlet/notification/notification-portlet/5.1.0/',
  publishedOn: 'Maven Central',
});
const lists = { from: 'rel@example.org', dev: ['dev@example.org'], user: ['user@example.org'], announce: ['dev@example.org', 'ann@example.org'] };

describe('notices', () => {
  it('the pre-release notice goes to the developer list with the planned day', () => {
    const m = prereleaseMail(facts('- fix: a'), lists, '2026-11-25');
    expect(m.to).toEqual(['dev@example.org']);
    expect(m.subject).toBe('[pre-release] notification-portlet 5.1.0 planned for 2026-11-25');
    expect(m.text).toContain('Changes since 5.0.0:\n\n- fix: a\n');
  });

  it('the announcement goes to every list once, with the coordinates', () => {
    const m = announceMail(facts(''), lists, '2026-11-23');
    expect(m.to).toEqual(['dev@example.org', 'user@example.org', 'ann@example.org']);
    expect(m.text).toContain('<groupId>org.jasig.portlet.notification</groupId>');
    expect(m.text).toContain('(no notable changes recorded)');
  });

  it('the social post stays within 280 characters and keeps the link whole', () => {
    const long = Array.from({ length: 12 }, (_, i) => `- feat: a rather long description of feature number ${i} that keeps going (#${i})`).join('\n');
    for (const notes of ['', '- fix: x', long]) {
      const post = socialPost(facts(notes));
      expect(post.length).toBeLessThanOrEqual(280);
      expect(post.endsWith(facts('').repositoryUrl)).toBe(true);
    }
    expect(socialPost(facts('- fix: x (abc1234)'))).toContain('New: fix: x.');
    const huge = socialPost(facts('', 'x'.repeat(400)));
    expect(huge.length).toBeLessThanOrEqual(280);
    expect(huge.endsWith(facts('').repositoryUrl)).toBe(true);
  });

  it('calls the repository Maven Central only when it is the real one', () => {
    expect(publicRepositoryName('https://repo1.maven.org/maven2')).toBe('Maven Central');
    expect(publicRepositoryName('https://repo.maven.apache.org/maven2/')).toBe('Maven Central');
    expect(publicRepositoryName('http://127.0.0.1:43117/repo')).toBe('127.0.0.1:43117');
    expect(publicRepositoryName('https://nexus.example.org/repository/public')).toBe('nexus.example.org');
    const sandbox = { ...facts('- fix: x'), publishedOn: '127.0.0.1:43117', repositoryUrl: 'http://127.0.0.1:43117/repo/org/x/5.1.0/' };
    expect(socialPost(sandbox)).toMatch(/^notification-portlet 5\.1\.0 is out on 127\.0\.0\.1:43117\./);
    expect(socialPost(sandbox)).not.toContain('Maven Central');
    const ann = announceMail(sandbox, lists, '2026-11-23');
    expect(ann.text).toContain('is on 127.0.0.1:43117:');
    expect(ann.text).toContain('127.0.0.1:43117: http://127.0.0.1:43117/repo/org/x/5.1.0/');
    expect(ann.text).not.toContain('Maven Central');
  });
});
