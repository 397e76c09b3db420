import { describe, expect, it } from 'vitest';
import { inNamespace, namespaceCandidates, namespaceRootOf, namespaceText, repositoryHolding } from './namespace.js';

const repo = (ns: string, state = 'open') => ({ key: `u/127.0.0.1/${ns}--default-repository`, state });

describe('namespace, not groupId', () => {
  it('holds a groupId only on a dot boundary', () => {
    expect(inNamespace('org.example.lib', 'org.example')).toBe(true);
    expect(inNamespace('org.example', 'org.example')).toBe(true);
    expect(inNamespace('org.examples', 'org.example')).toBe(false);
    expect(inNamespace('org.example', 'org.example.lib')).toBe(false);
  });

  it('tries the groupId, then its prefixes, longest first, never a bare top-level label', () => {
    expect(namespaceCandidates('org.jasig.portlet.notification')).toEqual(['org.jasig.portlet.notification', 'org.jasig.portlet', 'org.jasig']);
    expect(namespaceCandidates('org.example')).toEqual(['org.example']);
    expect(namespaceCandidates('junit')).toEqual(['junit']);
  });

  it('guesses the reverse domain, one more label under a code host', () => {
    expect(namespaceRootOf('org.example.relctl')).toBe('org.example');
    expect(namespaceRootOf('io.github.jane.tool')).toBe('io.github.jane');
    expect(namespaceRootOf('junit')).toBe('junit');
  });

  it('picks the repository whose namespace holds the groupId: longest wins, state filters, look-alikes do not count', () => {
    const repos = [repo('org.example'), repo('org.example.lib', 'closed'), repo('org.examples'), repo('com.other')];
    expect(repositoryHolding('org.example.lib.core', repos)?.namespace).toBe('org.example.lib');
    expect(repositoryHolding('org.example.lib.core', repos, 'open')?.namespace).toBe('org.example');
    expect(repositoryHolding('org.examples.x', repos, 'open')?.repository.key).toBe('u/127.0.0.1/org.examples--default-repository');
    expect(repositoryHolding('net.none', repos)).toBeUndefined();
    expect(repositoryHolding('org.example', [{ key: 'not a key', state: 'open' }])).toBeUndefined();
  });

  it('says the namespace used and how it was found', () => {
    const key = 'u/127.0.0.1/org.example--default-repository';
    expect(namespaceText({ namespace: 'org.example', groupId: 'org.example.lib', source: { kind: 'open-repository', repositoryKey: key } }, () => '<key>')).toBe(
      'namespace org.example: the open staging repository <key> holds groupId org.example.lib',
    );
    expect(namespaceText({ namespace: 'org.example', source: { kind: 'given', setting: '--namespace' } })).toBe('namespace org.example: from --namespace');
    expect(namespaceText({ namespace: 'a.b', groupId: 'a.b', source: { kind: 'group-id', groupId: 'a.b', setting: '--group-id', searched: false } })).toBe(
      'namespace a.b: the groupId (--group-id), not looked up',
    );
  });
});
