import { describe, expect, test } from 'vitest';
import { parseFaults } from './faults.js';
import { HttpError, parseAuthorization, safeSegments } from './http.js';
import { groupIdOfPath, inNamespace } from './namespaces.js';

const b64 = (s: string): string => Buffer.from(s).toString('base64');

describe('parseAuthorization', () => {
  test('decodes Basic and Bearer tokens, keeping colons inside the password', () => {
    expect(parseAuthorization(`Basic ${b64('u:p:q')}`, ['Basic'])).toEqual({ name: 'u', password: 'p:q' });
    expect(parseAuthorization(`bearer ${b64('u:p')}`, ['Bearer'])).toEqual({ name: 'u', password: 'p' });
  });
  test('refuses other schemes, missing parts and garbage', () => {
    for (const h of [undefined, '', 'Basic', `Digest ${b64('u:p')}`, `Basic ${b64('nocolon')}`, `Basic ${b64(':p')}`, 'Basic !!!']) {
      expect(parseAuthorization(h, ['Basic', 'Bearer']), String(h)).toBeUndefined();
    }
  });
});

describe('safeSegments', () => {
  test('decodes ordinary maven paths', () => {
    expect(safeSegments('/org/example/a/1.0/a-1.0.jar')).toEqual(['org', 'example', 'a', '1.0', 'a-1.0.jar']);
    expect(safeSegments('org/a%2Bb/1/x.jar')).toEqual(['org', 'a+b', '1', 'x.jar']);
  });
  test('refuses traversal, encoded separators, NUL, empty segments and bad escapes', () => {
    for (const p of ['a/../b', 'a/%2e%2E/b', 'a/./b', 'a/%2F/b', 'a/b%5Cc', 'a/%00/b', 'a//b', 'a/%E0%A4%A/b', '', '/']) {
      expect(() => safeSegments(p), p).toThrow(HttpError);
    }
  });
});

describe('namespaces', () => {
  test('a group id is in a namespace when equal or below it, never by a mere string prefix', () => {
    expect(inNamespace('org.example', 'org.example')).toBe(true);
    expect(inNamespace('org.example.core', 'org.example')).toBe(true);
    expect(inNamespace('org.examples', 'org.example')).toBe(false);
  });
  test('the group id of a deploy path, for artifacts and for metadata', () => {
    expect(groupIdOfPath(['org', 'example', 'a', '1.0', 'a-1.0.jar'])).toBe('org.example');
    expect(groupIdOfPath(['org', 'example', 'a', 'maven-metadata.xml.sha1'])).toBe('org.example');
    expect(groupIdOfPath(['a', '1.0', 'a-1.0.jar'])).toBeUndefined();
  });
});

describe('parseFaults', () => {
  test('accepts one fault or a list; retryAfter implies 429', () => {
    expect(parseFaults({ prefix: '/staging', retryAfter: 2 })).toEqual([{ prefix: '/staging', count: 1, status: 429, retryAfter: 2 }]);
    expect(parseFaults([{ prefix: '/a', reset: true, count: 3, method: 'put' }])).toEqual([{ prefix: '/a', reset: true, count: 3, method: 'PUT' }]);
  });
  test('refuses faults that do nothing or have bad fields', () => {
    for (const f of [{ prefix: '/a' }, { prefix: 'a', status: 500 }, { prefix: '/a', status: 99 }, { prefix: '/a', delayMs: -1 }, null, 'x']) {
      expect(() => parseFaults(f), JSON.stringify(f)).toThrow(HttpError);
    }
  });
});
