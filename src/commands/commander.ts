import { createRequire } from 'node:module';

/**
 * commander, loaded through its CommonJS entry: the ESM wrapper re-exports the same classes but
 * costs twice the load time through the CJS interop, and every relctl start pays it. Import
 * commander's classes from here, its types from 'commander' directly.
 */
const commander = createRequire(import.meta.url)('commander') as typeof import('commander');

export const { Command, CommanderError, InvalidArgumentError, Option } = commander;
