import { describe, expect, it } from 'vitest';
import { childEnv, isSecretVariable, markSecretRead, secretValues } from './child-env.js';

describe('childEnv', () => {
  it("removes relctl's secret variables and keeps everything else", () => {
    const env = childEnv({
      PATH: '/bin',
      RELCTL_TOKEN_USERNAME: 'u',
      RELCTL_TOKEN_PASSWORD: 'p',
      RELCTL_GITHUB_TOKEN: 'g',
      RELCTL_SMTP_URL: 'smtp://a:b@h',
      RELCTL_REGISTRY_PASSWORD: 'r',
      RELCTL_JIRA_TOKEN: 'j',
      RELCTL_GPG_PASSPHRASE: 'x',
      RELCTL_STAGING_API_URL: 'http://127.0.0.1:1',
      CENTRAL_TOKEN_PASSWORD: 'the build reads this one itself',
    });
    expect(env).toEqual({ PATH: '/bin', RELCTL_STAGING_API_URL: 'http://127.0.0.1:1', CENTRAL_TOKEN_PASSWORD: 'the build reads this one itself' });
  });

  it('gives back exactly what the caller passes for this child', () => {
    expect(childEnv({ RELCTL_TOKEN_PASSWORD: 'p' }, { RELCTL_MAVEN_TOKEN_PASSWORD_X: 'p' })).toEqual({ RELCTL_MAVEN_TOKEN_PASSWORD_X: 'p' });
  });

  it('removes GITHUB_TOKEN only once relctl has read it as its token', () => {
    expect(isSecretVariable('GPG_PASSPHRASE')).toBe(false);
    expect(childEnv({ GITHUB_TOKEN: 't' }).GITHUB_TOKEN).toBe('t');
    markSecretRead('GITHUB_TOKEN');
    expect(childEnv({ GITHUB_TOKEN: 't' }).GITHUB_TOKEN).toBeUndefined();
  });

  it('lists the secret values to mask, the SMTP password in both its encodings', () => {
    const values = secretValues({ RELCTL_SMTP_URL: 'smtp://mailer:pa%25ss@127.0.0.1:25', RELCTL_REGISTRY_USERNAME: 'bob', PATH: '/bin' });
    expect(values).toEqual(['smtp://mailer:pa%25ss@127.0.0.1:25', 'pa%25ss', 'pa%ss']);
  });
});
