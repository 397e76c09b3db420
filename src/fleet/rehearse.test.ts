import { describe, expect, it } from 'vitest';
import { FleetPomIndex, type BuiltPom } from './pom-index.js';
import { parentsOf, type Outcome } from './rehearse.js';

const parent: BuiltPom = { repo: 'o/parent', file: 'pom.xml', groupId: 'g', artifactId: 'parent', version: '3.0.0-SNAPSHOT' };
const child = (version: string): BuiltPom => ({ repo: 'o/child', file: 'pom.xml', groupId: 'g', artifactId: 'child', version: '1.0.0-SNAPSHOT', parent: { groupId: 'g', artifactId: 'parent', version } });
const order = ['o/parent', 'o/child'];

function plan(named: string, outcome: Outcome | undefined, names = order) {
  const poms = [parent, child(named)];
  return parentsOf({ poms, index: new FleetPomIndex(poms) }, 'o/child', names, async () => outcome!);
}

describe('parentsOf (which fleet parents a rehearsal waits on)', () => {
  it("moves a child naming the parent's snapshot onto the release the parent's rehearsal made", async () => {
    expect(await plan('3.0.0-SNAPSHOT', { ok: true, released: '3.0.0' })).toEqual({ moves: new Map([['g:parent:3.0.0-SNAPSHOT', '3.0.0']]), builtOn: ['g:parent:3.0.0'] });
  });

  it('builds a child that already names the rehearsed release on it, with nothing to move', async () => {
    expect(await plan('3.0.0', { ok: true, released: '3.0.0' })).toEqual({ moves: new Map(), builtOn: ['g:parent:3.0.0'] });
  });

  it("skips a child that needs the parent's rehearsal when it failed, or did not run before it", async () => {
    expect(await plan('3.0.0-SNAPSHOT', { ok: false, why: 'the rehearsal of o/parent ended FAILED' })).toEqual({
      blocker: 'its parent g:parent:3.0.0-SNAPSHOT is the current version of o/parent, and the rehearsal of o/parent ended FAILED',
    });
    expect(await plan('3.0.0-SNAPSHOT', undefined, ['o/child'])).toEqual({
      blocker: 'its parent g:parent:3.0.0-SNAPSHOT is the current version of o/parent, which only its rehearsal releases, and o/parent is not rehearsed before it in this run',
    });
  });

  it('does not wait on the parent for a child naming another (published) version of it', async () => {
    expect(await plan('2.4.0', { ok: false, why: 'the rehearsal of o/parent ended FAILED' })).toEqual({ moves: new Map(), builtOn: [] });
  });
});
