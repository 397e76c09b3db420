import type { Command } from 'commander';
import type { CommandContext } from '../io/command-context.js';

/**
 * A command module declares its options in register() and does its work in run(). The action
 * wrapper (cli.ts) builds the context, so a command never touches process.* or exit codes.
 * These types sit apart from the registry, which loads the command modules, so that a command
 * importing them does not import the registry back.
 */
export type Action = (ctx: CommandContext, opts: Record<string, unknown>, args: string[]) => Promise<number | void>;
export type Define = (program: Command, action: (fn: Action) => (...args: unknown[]) => Promise<void>) => void;
