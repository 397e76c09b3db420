/**
 * The JavaScript heap for a long run (a fleet audit over hundreds of repositories).
 *
 * Such a run holds little (7-9 MB live after a full collection at 500 repositories) but allocates
 * steadily, and V8 doubles the young generation each time enough survives a scavenge, up to
 * 2 x 16 MiB, so the process's peak memory grew with the number of repositories (103 MiB at 500
 * against 67 MiB at 20). Growth factor 1 keeps the young generation at its starting size. V8
 * reads the factor when it grows the space, so setting it now works; `--max-semi-space-size`
 * would not (it is read once, at start-up), and a flag on the command line is raised back to 2 at
 * start-up. Measured: the same speed at 20 and 500 repositories (docs/benchmarks.md).
 */
import { setFlagsFromString } from 'node:v8';

/** The V8 flag, set at run time (src/io/long-run-heap.test.ts shows it still works on this node). */
export const youngGenerationFlag = '--semi-space-growth-factor=1';

export function keepYoungGenerationSmall(): void {
  setFlagsFromString(youngGenerationFlag);
}
