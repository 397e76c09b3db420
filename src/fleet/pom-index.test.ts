import { describe, expect, it } from 'vitest';
import { builtPoms, fleetEdges, FleetPomIndex, parentsFirst } from './pom-index.js';
import { inOrderPool } from './pool.js';

const pom = (g: string, a: string, v: string, parent?: string): string =>
  `<project><modelVersion>4.0.0</modelVersion>${parent === undefined ? '' : `<parent>${parent.split(':').map((x, i) => `<${['groupId', 'artifactId', 'version'][i]}>${x}</${['groupId', 'artifactId', 'version'][i]}>`).join('')}</parent>`}<groupId>${g}</groupId><artifactId>${a}</artifactId><version>${v}</version><properties><revision>9</revision></properties></project>`;

describe('the fleet POM index', () => {
  const poms = [
    ...builtPoms('o/parent', [{ file: 'pom.xml', text: pom('org.o', 'o-parent', '${revision}') }, { file: 'broken/pom.xml', text: '<project>' }]).poms,
    ...builtPoms('o/lib', [
      { file: 'pom.xml', text: pom('org.o', 'lib-root', '1.0-SNAPSHOT', 'org.o:o-parent:8') },
      { file: 'core/pom.xml', text: pom('org.o', 'lib-core', '1.0-SNAPSHOT', 'org.o:lib-root:1.0-SNAPSHOT') },
    ]).poms,
    ...builtPoms('o/app', [{ file: 'pom.xml', text: pom('org.o', 'app', '2', 'org.o:lib-root:1.0-SNAPSHOT') }]).poms,
    ...builtPoms('o/copy', [{ file: 'pom.xml', text: pom('org.o', 'o-parent', '1') }]).poms,
  ];
  const index = new FleetPomIndex(poms);

  it('knows who builds which POM, versions interpolated from the POM itself; a broken POM is left out', () => {
    expect(index.builder('org.o', 'o-parent')).toMatchObject({ repo: 'o/parent', file: 'pom.xml', version: '9' });
    expect(index.builder('org.o', 'lib-core')).toMatchObject({ repo: 'o/lib', file: 'core/pom.xml' });
    expect(index.builder('org.o', 'nothing')).toBeUndefined();
    expect(index.conflicts).toEqual(['org.o:o-parent is built by both o/parent (pom.xml) and o/copy (pom.xml); o/parent is taken']);
  });

  it('draws edges between repositories only, and orders parents first', () => {
    const edges = fleetEdges(poms, index);
    expect(edges).toEqual([
      { from: 'o/app', to: 'o/lib' },
      { from: 'o/lib', to: 'o/parent' },
    ]);
    expect(parentsFirst(['o/app', 'o/lib', 'o/parent', 'o/copy'], edges)).toEqual(['o/copy', 'o/parent', 'o/lib', 'o/app']);
  });

  it('does not hang on a cycle', () => {
    expect(parentsFirst(['a', 'b', 'c'], [{ from: 'a', to: 'b' }, { from: 'b', to: 'a' }, { from: 'c', to: 'a' }])).toEqual(['a', 'b', 'c']);
  });
});

describe('inOrderPool', () => {
  it('runs at most N at once and hands results on in the items\' order', async () => {
    let running = 0;
    let most = 0;
    const seen: number[] = [];
    await inOrderPool([30, 5, 20, 1, 10], 2, async (ms) => {
      running++;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, ms));
      running--;
      return ms;
    }, (ms) => {
      seen.push(ms);
    });
    expect(most).toBe(2);
    expect(seen).toEqual([30, 5, 20, 1, 10]);
  });

  it('starts nothing more once aborted', async () => {
    const controller = new AbortController();
    const started: number[] = [];
    await inOrderPool([1, 2, 3, 4], 1, async (n) => {
      started.push(n);
      if (n === 2) controller.abort();
      return n;
    }, () => undefined, controller.signal);
    expect(started).toEqual([1, 2]);
  });
});
