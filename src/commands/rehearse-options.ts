/**
 * The options of a rehearsal that `relctl rehearse` and `relctl fleet rehearse` share. A file of
 * its own, light on imports: the fleet command defines them without loading the rehearsal.
 */
import type { Command } from 'commander';
import { positiveSeconds } from '../release/options.js';
import type { RehearseOptions } from '../release/rehearse/run.js';

/** The options every rehearsal takes, `relctl rehearse`'s and `relctl fleet rehearse`'s. */
export function rehearsalOptions(cmd: Command): Command {
  return cmd
    .option('--sign', 'sign with a throwaway key, published and confirmed on the sandbox key server (else your own key is published there)')
    .option('--publish', 'after VALIDATED, publish in the sandbox and fetch the jars back from its public repository')
    .option('--maven-mirror <url>', 'resolve from this repository first, then Maven Central (e.g. Debian\'s file:///usr/share/maven-repo; the release plugin comes from Central)')
    .option('--skip-tests', 'rehearsal only: -DskipTests for every build of the rehearsal, to see past failing tests (a real release runs them)')
    .option('--wait-timeout <seconds>', 'how long to wait for the sandbox portal verdict', positiveSeconds, 120);
}

/** What those options ask of a rehearsal. */
export function rehearsalFlags(opts: Record<string, unknown>): Pick<RehearseOptions, 'sign' | 'publish' | 'skipTests' | 'waitTimeout' | 'mavenMirror'> {
  return {
    sign: opts.sign === true,
    publish: opts.publish === true,
    skipTests: opts.skipTests === true,
    waitTimeout: typeof opts.waitTimeout === 'number' ? opts.waitTimeout : 120,
    ...(typeof opts.mavenMirror === 'string' ? { mavenMirror: opts.mavenMirror } : {}),
  };
}
