import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { knownTitle } from './finding-titles.js';

/** The codes of the finding-code table in docs/output.md (the public contract). */
function documentedCodes(): string[] {
  const doc = readFileSync(path.resolve(import.meta.dirname, '../../docs/output.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Finding codes'));
  const end = section.indexOf('\n## ', 5);
  const table = end === -1 ? section : section.slice(0, end);
  return [...table.matchAll(/^\| `([a-z-]+)` \|/gm)].map((m) => m[1]!);
}

describe('finding titles', () => {
  it('gives every documented code a title (the rule name code-scanning views show)', () => {
    const codes = documentedCodes();
    expect(codes.length).toBeGreaterThan(30);
    expect(codes.filter((c) => knownTitle(c) === undefined)).toEqual([]);
  });
});
