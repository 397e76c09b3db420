import { readFileSync } from 'node:fs';

/** One line of the top-level help: the command's name, its usage term and its description. */
export interface CommandSummary {
  name: string;
  term: string;
  description: string;
}

/**
 * The top-level help's command list as the build wrote it next to the bundle (scripts/bundle.mjs,
 * from the same command modules), so `relctl --help` lists the commands without loading them.
 * Undefined outside the bundle (dist/, tests), where the modules are loaded as before.
 */
export function bundledCommandSummary(): CommandSummary[] | undefined {
  const here = import.meta.url;
  if (!/\/bundle\/[^/]+\.cjs$/.test(here)) return undefined;
  try {
    const list = JSON.parse(readFileSync(new URL('commands.json', here), 'utf8')) as unknown;
    return Array.isArray(list) && list.every((c) => typeof c?.name === 'string' && typeof c.term === 'string' && typeof c.description === 'string') ? (list as CommandSummary[]) : undefined;
  } catch {
    return undefined;
  }
}
