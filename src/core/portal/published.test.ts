import { describe, expect, it } from 'vitest';
import { decodePublished } from './published.js';

describe('decodePublished', () => {
  it('reads the portal\'s one field and ignores the rest', () => {
    expect(decodePublished({ published: true })).toBe(true);
    expect(decodePublished({ published: false, extra: 1 })).toBe(false);
  });
  it('is undefined for anything that is not that answer', () => {
    for (const v of [null, [], 'true', { published: 'yes' }, {}, 1]) expect(decodePublished(v)).toBeUndefined();
  });
});
