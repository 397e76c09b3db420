import { describe, expect, it } from 'vitest';
import { commandNameIn } from './registry.js';

describe('commandNameIn', () => {
  const valued = new Set(['--cwd', '--settings']);
  it('finds the command after global options and their values', () => {
    expect(commandNameIn(['--cwd', 'upload', 'preflight', '--json'], valued)).toBe('preflight');
    expect(commandNameIn(['--cwd=upload', 'keys', 'check'], valued)).toBe('keys');
    expect(commandNameIn(['--json', '--version'], valued)).toBeUndefined();
    expect(commandNameIn(['--', 'preflight'], valued)).toBeUndefined();
  });
});
