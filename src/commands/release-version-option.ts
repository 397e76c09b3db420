import { releaseVersionProblem } from '../core/version.js';
import { InvalidArgumentError, Option } from './commander.js';

/**
 * `--release-version X.Y.Z`, validated once for every post-release command: a bad value is a usage
 * error (exit 2) before anything is read or changed.
 */
export function releaseVersionOption(description = "the released version (default: the journal's last release, else the newest release tag)"): Option {
  return new Option('--release-version <X.Y.Z>', description).argParser((value: string) => {
    const problem = releaseVersionProblem(value);
    if (problem !== undefined) throw new InvalidArgumentError(`${JSON.stringify(value)} is not a release version X.Y.Z (${problem}); e.g. --release-version 1.0.2.`);
    return value;
  });
}
