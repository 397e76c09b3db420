import { gradleChecksumsEnv, gradleReleaseInvocation, gradleTokenEnv, type ReleaseVersions } from '../core/release-commands.js';
import type { ProcessRunner } from '../io/process-runner.js';
import { runInvocation } from './maven-release.js';
import { buildToolCommand } from './wrapper.js';

/**
 * Runs the Gradle release plugin: `clean release --no-parallel` with the wrapper when present.
 * The token travels in ORG_GRADLE_PROJECT_* variables (never argv); in CI the plugin's
 * non-interactive properties replace the answers written to its prompts.
 */
export async function gradleExecutable(root: string, note?: (line: string) => void): Promise<string> {
  const c = await buildToolCommand(root, 'gradle');
  if (c.why !== undefined) note?.(c.why);
  return c.executable;
}

export async function gradleRelease(
  proc: ProcessRunner,
  root: string,
  v: ReleaseVersions,
  options: {
    ci: boolean;
    interactive: boolean;
    chosen?: boolean;
    token?: { username: string; password: string };
    note?: (line: string) => void;
    /** Which checksum files the build publishes (config `checksums`, default required). */
    checksums?: 'required' | 'all';
  },
): Promise<void> {
  const inv = gradleReleaseInvocation(await gradleExecutable(root, options.note), v, options);
  const env = {
    ...gradleChecksumsEnv(options.checksums ?? 'required'),
    ...(options.token === undefined ? {} : gradleTokenEnv(options.token.username, options.token.password)),
  };
  await runInvocation(proc, root, inv, 'Fix the cause shown above, then run `relctl release --resume`.', env);
}
