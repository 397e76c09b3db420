import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cycles, describeCycle, importEdges, specifiersOf, type Edge } from '../helpers/import-graph.js';

const src = path.resolve(import.meta.dirname, '..', '..', 'src');

/**
 * Edges left out of the graph on purpose, each by name and with its reason. Type-only imports and lazy
 * `import()` count like any other: a circle through them still ties the two sides together.
 */
const excused: readonly (Pick<Edge, 'from' | 'to'> & { why: string })[] = [];

describe('the import graph of src/', () => {
  it('has no circles (type-only and dynamic imports count)', () => {
    const all = importEdges(src);
    const edges = all.filter((e) => !excused.some((x) => x.from === e.from && x.to === e.to));
    // Every excused edge must still exist, or the excuse is stale.
    for (const x of excused) expect(all.some((e) => e.from === x.from && e.to === x.to), `${x.from} -> ${x.to}`).toBe(true);
    const found = cycles(edges);
    expect(found.map((c) => describeCycle(c, edges)).join('\n'), `${found.length} circle(s)`).toBe('');
  });

  it('sees value, type-only, re-export and dynamic imports, and not commented ones', () => {
    const text = [
      "import { a } from './a.js';",
      "import type { B } from './b.js';",
      "import { type C } from './c.js';",
      "export * from './d.js';",
      "export type { E } from './e.js';",
      "const f = await import('./f.js');",
      "let g: import('./g.js').G;",
      "// import './h.js';",
      "import fs from 'node:fs';",
    ].join('\n');
    expect(specifiersOf('x.ts', text)).toEqual([
      { specifier: './a.js', kind: 'value' },
      { specifier: './b.js', kind: 'type' },
      { specifier: './c.js', kind: 'type' },
      { specifier: './d.js', kind: 'value' },
      { specifier: './e.js', kind: 'type' },
      { specifier: './f.js', kind: 'dynamic' },
      { specifier: './g.js', kind: 'type' },
    ]);
  });

  it('finds each circle once, and none in a chain', () => {
    const e = (from: string, to: string): Edge => ({ from, to, kind: 'value' });
    expect(cycles([e('a', 'b'), e('b', 'c'), e('c', 'a'), e('c', 'd'), e('d', 'e'), e('e', 'd'), e('f', 'f')])).toEqual([
      ['a', 'b', 'c'],
      ['d', 'e'],
      ['f'],
    ]);
    expect(cycles([e('a', 'b'), e('b', 'c'), e('a', 'c')])).toEqual([]);
  });
});
