import { readFileSync } from 'node:fs';
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gatherMavenFacts } from '../../src/build-tools/maven/gather.js';
import { checks } from '../../src/checks/index.js';
import { runChecks } from '../../src/checks/run-checks.js';
import type { ProjectFacts } from '../../src/checks/facts.js';
import { parseMavenSettings } from '../../src/core/maven-settings.js';
import { parsePom } from '../../src/core/pom/index.js';
import { tempDir } from '../helpers/temp.js';

const fixtures = path.resolve(import.meta.dirname, '../fixtures/maven');
/** Every finding code the reference documents (docs/output.md's table), read from it: a new code is covered once it is written there. */
const documented = new Set([...readFileSync(path.resolve(import.meta.dirname, '../../docs/output.md'), 'utf8').matchAll(/^\| `([a-z0-9-]+)` \|/gm)].map((m) => m[1]!));
const mavenChecks = checks.filter((c) => c.id.startsWith('maven-'));

/** Random edits of a valid text: deletions, insertions of XML-ish noise, duplications, truncation. */
const noise = fc.oneof(
  fc.constantFrom('<', '>', '</', '/>', '&', '&amp;', '${', '}', '${project.version}', '${env.HOME}', '<![CDATA[', ']]>', '<!--', '-->', '\u0000', '\r\n', '<module>..</module>', '<module>.</module>', '<relativePath>..</relativePath>'),
  fc.string({ maxLength: 12 }),
);
const edit = fc.oneof(
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), length: fc.nat({ max: 40 }) }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), text: noise }),
  fc.record({ kind: fc.constant('duplicate' as const), at: fc.nat(), length: fc.nat({ max: 80 }) }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
);
type Edit = typeof edit extends fc.Arbitrary<infer E> ? E : never;

function mutate(text: string, edits: Edit[]): string {
  let t = text;
  for (const e of edits) {
    const at = t.length === 0 ? 0 : e.at % (t.length + 1);
    if (e.kind === 'delete') t = t.slice(0, at) + t.slice(at + e.length);
    else if (e.kind === 'insert') t = t.slice(0, at) + e.text + t.slice(at);
    else if (e.kind === 'duplicate') t = t.slice(0, at) + t.slice(at, at + e.length) + t.slice(at);
    else t = t.slice(0, at);
  }
  return t;
}

describe('bad input never crashes the Maven model', () => {
  it('pure parsers return a result for any mutation of a POM or settings file', async () => {
    const pomText = await readFile(path.join(fixtures, 'projects/good/pom.xml'), 'utf8');
    const settingsText = await readFile(path.join(fixtures, 'home/.m2/settings.xml'), 'utf8');
    fc.assert(
      fc.property(fc.array(edit, { maxLength: 6 }), (edits) => {
        const p = parsePom(mutate(pomText, edits));
        if (!p.ok) expect(p.line === undefined || p.line >= 1).toBe(true);
        const s = parseMavenSettings(mutate(settingsText, edits), { env: {}, home: '/h' });
        expect(typeof s.ok).toBe('boolean');
      }),
      { numRuns: 300 },
    );
  });

  it('gathering and checks never throw on mutated reactors; every finding has a documented code and a valid line', async () => {
    expect([...documented]).toEqual(expect.arrayContaining(['xml-malformed', 'parent-unresolved', 'metadata-from-foreign-parent', 'unresolved-property']));
    await using dir = await tempDir();
    const good = path.join(fixtures, 'projects/good');
    const originals = {
      'pom.xml': await readFile(path.join(good, 'pom.xml'), 'utf8'),
      'core/pom.xml': await readFile(path.join(good, 'core/pom.xml'), 'utf8'),
      'settings.xml': await readFile(path.join(fixtures, 'home/.m2/settings.xml'), 'utf8'),
    };
    await mkdir(path.join(dir.path, 'core'), { recursive: true });
    await mkdir(path.join(dir.path, 'web/src/main/webapp'), { recursive: true });
    await writeFile(path.join(dir.path, 'web/pom.xml'), await readFile(path.join(good, 'web/pom.xml')));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('pom.xml', 'core/pom.xml', 'settings.xml'), fc.array(edit, { minLength: 1, maxLength: 5 }), async (target, edits) => {
        const texts: Record<string, string> = { ...originals, [target]: mutate(originals[target as keyof typeof originals], edits) };
        for (const [rel, text] of Object.entries(texts)) await writeFile(path.join(dir.path, rel), text);
        const gathered = await gatherMavenFacts(dir.path, {
          settingsFile: path.join(dir.path, 'settings.xml'),
          localRepo: path.join(fixtures, 'home/.m2/repository'),
          env: {},
          home: path.join(fixtures, 'home'),
        });
        const facts: ProjectFacts = { root: dir.path, buildTool: 'maven', gatherFindings: gathered.findings, maven: gathered.facts };
        const findings = runChecks(mavenChecks, facts, { offline: true });
        for (const f of findings) {
          expect(documented.has(f.code), f.code).toBe(true);
          expect(f.fix.length).toBeGreaterThan(0);
          if (f.line !== undefined) {
            expect(Number.isInteger(f.line) && f.line >= 1).toBe(true);
            const text = texts[f.file === path.join(dir.path, 'settings.xml') ? 'settings.xml' : f.file ?? ''];
            if (text !== undefined) expect(f.line).toBeLessThanOrEqual(text.split('\n').length);
          }
        }
      }),
      { numRuns: 120 },
    );
  });
});
