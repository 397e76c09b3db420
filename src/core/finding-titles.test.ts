import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { knownTitle } from './finding-titles.js';

/** The codes of the README's finding-code table (the public contract). */
function readmeCodes(): string[] {
  const readme = readFileSync(path.resolve(import.meta.dirname, '../../README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Finding codes'));
  const table = section.slice(0, section.indexOf('\n## ', 5));
  return [...table.matchAll(/^\| `([a-z-]+)` \|/gm)].map((m) => m[1]!);
}

describe('finding titles', () => {
  it('gives every documented code a title (the rule name code-scanning views show)', () => {
    const codes = readmeCodes();
    expect(codes.length).toBeGreaterThan(30);
    expect(codes.filter((c) => knownTitle(c) === undefined)).toEqual([]);
  });
});
