import { describe, expect, it } from 'vitest';
import { PullPacer } from './pulls.js';

describe('PullPacer', () => {
  it('counts every attempt toward --max-prs, refused or not', async () => {
    const pacer = new PullPacer(2, 0);
    expect(await pacer.turn()).toBeUndefined();
    pacer.attempted();
    expect(await pacer.turn()).toBeUndefined();
    pacer.attempted();
    expect(await pacer.turn()).toMatch(/--max-prs 2 pull requests were attempted in this run/);
  });

  it('after a refusal that would repeat, gives no further turn and says why', async () => {
    const pacer = new PullPacer(20, 60_000);
    pacer.attempted();
    pacer.stop('GitHub refused to open a pull request on acme/one with this token');
    pacer.stop('a later reason');
    // No wait for the interval: nothing more is attempted.
    expect(await pacer.turn()).toBe('GitHub refused to open a pull request on acme/one with this token');
  });
});
