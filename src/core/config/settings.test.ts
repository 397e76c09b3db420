import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configJsonSchema, settingSpecs } from './settings.js';

describe('settings table', () => {
  it('ships a JSON Schema that matches the table (run `npm run schema` after changing it)', () => {
    const shipped = JSON.parse(readFileSync(new URL('../../../schema/relctl.config.schema.json', import.meta.url), 'utf8'));
    expect(shipped).toEqual(configJsonSchema());
  });

  it('gives every setting a RELCTL_ variable and a long flag', () => {
    for (const spec of settingSpecs) {
      expect(spec.env).toMatch(/^RELCTL_[A-Z_]+$/);
      expect(spec.flag).toMatch(/^--[a-z-]+ <[a-z-]+>$/);
    }
  });
});
