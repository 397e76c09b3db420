import { readFileSync } from 'node:fs';

let cached: string | undefined;

/**
 * relctl's own version from its package.json. The file is looked up from this module upwards
 * because the module's depth differs between src/ (tests), dist/ (compiled) and bundle/ (the
 * bundled CLI that bin/relctl.js prefers): a fixed relative path is right in only one of them.
 */
export function packageVersion(): string {
  if (cached !== undefined) return cached;
  for (const rel of ['../package.json', '../../package.json', '../../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'relctl' && pkg.version !== undefined) return (cached = pkg.version);
    } catch {
      // not at this depth
    }
  }
  return (cached = '0.0.0');
}
