import { describe, expect, it } from 'vitest';
import { withRateLimitRetry } from './rate-limited.js';

/** An octokit-like failure with GitHub's status and headers. */
function limited(status: number, headers: Record<string, string>, message = 'You have exceeded a secondary rate limit.'): Error {
  return Object.assign(new Error(message), { status, response: { headers, data: { message } } });
}

describe('withRateLimitRetry', () => {
  const now = () => 1_000_000;

  it('waits what Retry-After says, then what x-ratelimit-reset says, and retries', async () => {
    const waits: number[] = [];
    const lines: string[] = [];
    const answers = [limited(403, { 'retry-after': '7' }), limited(429, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(1_000_000 / 1000 + 20) }, 'API rate limit exceeded')];
    const result = await withRateLimitRetry(
      async () => {
        const next = answers.shift();
        if (next !== undefined) throw next;
        return 'done';
      },
      { what: 'opening the pull request', log: (l) => lines.push(l), now, sleep: async (ms) => void waits.push(ms) },
    );
    expect(result).toBe('done');
    expect(waits).toEqual([7000, 20_000]);
    expect(lines[0]).toBe("GitHub's rate limit: waiting 7 s before opening the pull request again (retry 1 of 3).");
  });

  it('gives up after three retries, and never waits on a limit longer than allowed or on another failure', async () => {
    let calls = 0;
    const always = () => withRateLimitRetry(async () => {
      calls++;
      throw limited(429, { 'retry-after': '1' });
    }, { what: 'x', log: () => undefined, now, sleep: async () => undefined });
    await expect(always()).rejects.toThrow(/secondary rate limit/);
    expect(calls).toBe(4);
    const long = withRateLimitRetry(async () => { throw limited(403, { 'retry-after': '3600' }); }, { what: 'x', log: () => undefined, now, sleep: async () => { throw new Error('must not wait'); } });
    await expect(long).rejects.toThrow(/secondary rate limit/);
    const refused = withRateLimitRetry(async () => { throw Object.assign(new Error('Bad credentials'), { status: 401, response: { headers: {}, data: { message: 'Bad credentials' } } }); }, { what: 'x', log: () => undefined, now, sleep: async () => { throw new Error('must not wait'); } });
    await expect(refused).rejects.toThrow(/Bad credentials/);
  });
});
