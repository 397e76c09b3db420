import { Command, CommanderError, Help, InvalidArgumentError, Option } from 'commander';

/**
 * commander's classes. `npm run build` bundles commander into bundle/ with the rest of relctl (so
 * a start reads and links no commander files of its own); only an unbundled dist/ run goes through
 * its ESM wrapper. Import commander's classes from here, its types from 'commander'.
 */
export { Command, CommanderError, Help, InvalidArgumentError, Option };

/** A repeatable option's parser: each occurrence adds its value to the list. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}
