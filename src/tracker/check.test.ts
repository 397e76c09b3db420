import { setTimeout as sleep } from 'node:timers/promises';
import type { Octokit } from '@octokit/rest';
import { describe, expect, it } from 'vitest';
import { trackerRefs } from '../core/notes/tracker.js';
import type { HttpClient } from '../io/http.js';
import { lookUpRefs } from './check.js';

/** The lookup bound, with a stand-in octokit that counts the calls in flight (narrow unit test). */
describe('lookUpRefs', () => {
  it('asks at most `concurrency` at once and answers every reference in order', async () => {
    let inFlight = 0;
    let most = 0;
    const octokit = {
      rest: {
        issues: {
          get: async ({ issue_number }: { issue_number: number }) => {
            inFlight += 1;
            most = Math.max(most, inFlight);
            await sleep(20);
            inFlight -= 1;
            return { status: 200, headers: {}, data: { state: issue_number % 2 === 0 ? 'closed' : 'open', html_url: `https://x/${issue_number}` } };
          },
        },
      },
    } as unknown as Octokit;
    const refs = trackerRefs(Array.from({ length: 12 }, (_, i) => `#${i + 1}`), { owner: 'o', name: 'r' });
    const results = await lookUpRefs(refs, { github: async () => octokit, http: {} as HttpClient, concurrency: 3 });
    expect(most).toBe(3);
    expect(results.map((r) => `${r.ref}:${r.outcome}`)).toEqual(refs.map((r, i) => `${r.ref}:${i % 2 === 0 ? 'unresolved' : 'resolved'}`));
  });
});
