import { describe, expect, it } from 'vitest';
import { makeZip } from '../../test/helpers/zip.js';
import { readZip } from './zip.js';

describe('readZip', () => {
  it('reads back what was zipped (deflated), skipping folder entries', () => {
    const files = new Map<string, Uint8Array>([
      ['org/example/a/1.0.0/a-1.0.0.pom', Buffer.from('<project/>')],
      ['org/example/a/1.0.0/a-1.0.0.jar', Buffer.alloc(5000, 7)],
      ['org/', Buffer.alloc(0)],
    ]);
    const back = readZip(makeZip(files));
    expect([...back.keys()]).toEqual(['org/example/a/1.0.0/a-1.0.0.pom', 'org/example/a/1.0.0/a-1.0.0.jar']);
    expect(Buffer.from(back.get('org/example/a/1.0.0/a-1.0.0.jar')!).equals(Buffer.alloc(5000, 7))).toBe(true);
  });

  it('names what is wrong: not a zip, truncated, over the limits', () => {
    expect(() => readZip(Buffer.from('hello'))).toThrow(/not a zip archive/);
    const zip = makeZip(new Map([['a.txt', Buffer.alloc(100, 1)]]));
    expect(() => readZip(Buffer.concat([zip.subarray(0, 20), zip.subarray(zip.length - 22 - 39)]))).toThrow();
    expect(() => readZip(zip, { maxBytes: 10 })).toThrow(/over the limit/);
    expect(() => readZip(makeZip(new Map([['a', Buffer.from('x')], ['b', Buffer.from('y')]])), { maxEntries: 1 })).toThrow(/too many entries/);
  });
});
