import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from './errors.js';
import { codesOf, findingGroups, groupOf, selectedGroups } from './finding-groups.js';

/** The codes of the finding-code table in docs/output.md (the public contract). */
function documentedCodes(): string[] {
  const doc = readFileSync(path.resolve(import.meta.dirname, '../../docs/output.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Finding codes'));
  const end = section.indexOf('\n## ', 5);
  const table = end === -1 ? section : section.slice(0, end);
  return [...table.matchAll(/^\| `([a-z-]+)` \|/gm)].map((m) => m[1]!);
}

describe('finding groups', () => {
  it('gives every code of the finding-code table (docs/output.md) exactly one group', () => {
    const codes = documentedCodes();
    expect(codes.length).toBeGreaterThan(30);
    expect(codes).toContain('unresolved-property');
    for (const code of codes) expect(groupOf(code), code).toBeDefined();
    const all = findingGroups.flatMap((g) => codesOf(g));
    expect(new Set(all).size).toBe(all.length);
  });

  it('puts what a pull request cannot have (secrets) in credentials and signing', () => {
    expect(groupOf('server-id-mismatch')).toBe('credentials');
    expect(groupOf('gradle-properties-missing')).toBe('credentials');
    expect(groupOf('signing-keyring-missing')).toBe('signing');
    expect(groupOf('prerelease-notice-missing')).toBe('repository');
  });

  it('selects groups from --skip or --only, refusing unknown names and both flags', () => {
    expect([...selectedGroups(['credentials', 'signing'], undefined)]).toEqual(['descriptors', 'repository', 'online']);
    expect([...selectedGroups(undefined, ['descriptors,repository'])]).toEqual(['descriptors', 'repository']);
    expect([...selectedGroups(undefined, undefined)]).toEqual([...findingGroups]);
    expect(() => selectedGroups(['secrets'], undefined)).toThrow(UsageError);
    expect(() => selectedGroups(['signing'], ['descriptors'])).toThrow(/together/);
  });
});
