import type { Command } from 'commander';
import type { CommandContext } from './context.js';

/**
 * A command module declares its options in register() and does its work in run(). The action
 * wrapper (cli.ts) builds the context, so a command never touches process.* or exit codes.
 */
export type Action = (ctx: CommandContext, opts: Record<string, unknown>, args: string[]) => Promise<number | void>;
export type Define = (program: Command, action: (fn: Action) => (...args: unknown[]) => Promise<void>) => void;

/**
 * Command modules, loaded lazily: registering a command costs nothing until it runs, so
 * `relctl --version` stays close to a bare `node` start.
 */
export const commandModules: (() => Promise<{ define: Define }>)[] = [
  () => import('./preflight.js'),
];
