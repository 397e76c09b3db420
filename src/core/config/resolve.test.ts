import { describe, expect, it } from 'vitest';
import { UsageError } from '../errors.js';
import { resolveConfig, validateConfigFile } from './resolve.js';

describe('resolveConfig', () => {
  it('uses the real services by default', () => {
    const { config, sources } = resolveConfig({ flags: {}, env: {}, file: {} });
    expect(config.stagingApiUrl).toBe('https://ossrh-staging-api.central.sonatype.com');
    expect(config.keyserverUrl).toBe('https://keys.openpgp.org');
    expect(config.timeout).toBe(30);
    expect(sources.portalUrl).toBe('default');
  });

  it('applies flags over environment over file', () => {
    const { config, sources } = resolveConfig({
      flags: { portalUrl: 'http://127.0.0.1:1/portal/' },
      env: { RELCTL_PORTAL_URL: 'http://env', RELCTL_PUBLIC_REPO_URL: 'http://127.0.0.1:2/repo' },
      file: { portalUrl: 'http://file', publicRepoUrl: 'http://file', groupId: 'org.example' },
    });
    expect(config.portalUrl).toBe('http://127.0.0.1:1/portal'); // trailing slash dropped
    expect(sources.portalUrl).toBe('flag');
    expect(config.publicRepoUrl).toBe('http://127.0.0.1:2/repo');
    expect(sources.publicRepoUrl).toBe('env');
    expect(config.groupId).toBe('org.example');
    expect(sources.groupId).toBe('file');
  });

  it('normalises a fingerprint and rejects a malformed one naming its source', () => {
    const fpr = '0x' + 'ab'.repeat(20);
    expect(resolveConfig({ flags: { fingerprint: fpr }, env: {}, file: {} }).config.fingerprint).toBe('AB'.repeat(20));
    expect(() => resolveConfig({ flags: {}, env: { RELCTL_FINGERPRINT: 'abc' }, file: {} })).toThrow(/RELCTL_FINGERPRINT/);
  });

  it('rejects every bad value at once, as a usage error', () => {
    try {
      resolveConfig({ flags: { timeout: '0' }, env: { RELCTL_STAGING_API_URL: 'ftp://x' }, file: {} });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(UsageError);
      expect((error as UsageError).exitCode).toBe(2);
      expect((error as Error).message).toContain('--timeout');
      expect((error as Error).message).toContain('RELCTL_STAGING_API_URL');
    }
  });

  it('refuses URLs that carry credentials', () => {
    expect(() => resolveConfig({ flags: { stagingApiUrl: 'https://u:p@host' }, env: {}, file: {} })).toThrow(/credentials/);
  });
});

describe('validateConfigFile', () => {
  it('reports unknown keys and steers secrets to the environment', () => {
    const { problems } = validateConfigFile({ tokenPassword: 'x', colour: 'red', portalUrl: 'https://p' });
    expect(problems.map((p) => p.key)).toEqual(['tokenPassword', 'colour']);
    expect(problems[0]!.message).toContain('RELCTL_TOKEN_PASSWORD');
  });

  it('accepts the $schema key and rejects a non-object', () => {
    expect(validateConfigFile({ $schema: './schema.json' }).problems).toEqual([]);
    expect(validateConfigFile([1]).problems[0]!.message).toContain('object');
  });
});

describe('the tracker section', () => {
  it('accepts repo and jiraProjects and carries them into the config; GitHub defaults to the public API', () => {
    const { sections, problems } = validateConfigFile({ tracker: { repo: 'apereo/uPortal', jiraProjects: ['UP'] } });
    expect(problems).toEqual([]);
    const { config } = resolveConfig({ flags: {}, env: { RELCTL_JIRA_URL: 'https://issues.example.org/' }, file: {}, sections });
    expect(config.tracker).toEqual({ repo: 'apereo/uPortal', jiraProjects: ['UP'] });
    expect(config.githubApiUrl).toBe('https://api.github.com');
    expect(config.jiraUrl).toBe('https://issues.example.org');
  });
  it('names every problem of the section', () => {
    const { problems } = validateConfigFile({ tracker: { repo: 'no-slash', jiraProjects: ['up'], token: 'x' } });
    expect(problems.map((p) => p.message)).toEqual([
      'tracker.repo must be "owner/name"',
      'tracker.jiraProjects must be a list of upper-case Jira project keys such as ["UP"]',
      'tracker.token is not a known key (known: repo, jiraProjects); secrets do not belong in a committed file (RELCTL_* variables: see docs/configuration.md)',
    ]);
  });
});
