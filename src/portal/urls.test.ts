import { describe, expect, it } from 'vitest';
import { apiUrl, repositoryKeyOf, withUser } from './urls.js';

describe('the one URL builder', () => {
  it('encodes each interpolated value once, as one path segment, and the query through URLSearchParams', () => {
    expect(apiUrl('http://h/staging/', { publishing_type: 'user_managed', state: undefined })`/manual/upload/defaultRepository/${'org.example'}`).toBe(
      'http://h/staging/manual/upload/defaultRepository/org.example?publishing_type=user_managed',
    );
    expect(apiUrl('http://h', { id: 'a&b=c d' })`/x/${'a/b?c#d%'}`).toBe('http://h/x/a%2Fb%3Fc%23d%25?id=a%26b%3Dc+d');
  });

  it('sends a repository key as three encoded segments, the masked user replaced by the token username', () => {
    const key = withUser(repositoryKeyOf('***/2001:db8::1/org.example--default-repository'), 'me@x');
    expect(apiUrl('http://h')`/manual/drop/repository/${{ repositoryKey: key }}`).toBe('http://h/manual/drop/repository/me%40x/2001%3Adb8%3A%3A1/org.example--default-repository');
  });

  it('refuses dot segments, which the URL parser would resolve after encoding', () => {
    for (const v of ['.', '..', '%2e%2E', '']) expect(() => apiUrl('http://h')`/deployment/${v}`).toThrow(/part of a request path/);
  });

  it('a bad key is a usage error naming the shape', () => {
    expect(() => repositoryKeyOf('u/1.2.3.4/../../../../sandbox/reset')).toThrow(expect.objectContaining({ exitCode: 2, kind: 'invalid-repository-key' }));
  });
});
