import type { Define } from './define.js';

/**
 * Command modules by top-level command name, loaded lazily: only the module of the command being
 * run is imported (all of them only for --help or an unknown command), so `relctl --version`
 * stays close to a bare `node` start. Add one line per command: `name: () => import('./file.js'),`
 */
export const commandModules: Record<string, () => Promise<{ define: Define }>> = {
  preflight: () => import('./preflight.js'),
  upload: () => import('./upload.js'),
  search: () => import('./search.js'),
  status: () => import('./status.js'),
  publish: () => import('./publish.js'),
  drop: () => import('./drop.js'),
  keys: () => import('./keys.js'),
  verify: () => import('./verify.js'),
  sandbox: () => import('./sandbox.js'),
  release: () => import('./release.js'),
  run: () => import('./run.js'),
  rehearse: () => import('./rehearse.js'),
  notes: () => import('./notes.js'),
  notify: () => import('./notify.js'),
  image: () => import('./image.js'),
  smoke: () => import('./smoke.js'),
  distribute: () => import('./distribute.js'),
  init: () => import('./init.js'),
  fleet: () => import('./fleet.js'),
};

/**
 * The top-level command named in argv, skipping the values of global options that take one
 * (`relctl --cwd upload preflight` runs preflight in ./upload).
 */
export function commandNameIn(argv: readonly string[], optionsWithValue: ReadonlySet<string>): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') return undefined;
    if (arg.startsWith('-')) {
      if (!arg.includes('=') && optionsWithValue.has(arg)) i++;
      continue;
    }
    return arg;
  }
  return undefined;
}
