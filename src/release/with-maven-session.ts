import { openMavenSession, type MavenSession } from '../build-tools/maven-release.js';
import { warmGpgAgent } from './gpg-warmup.js';
import { mavenTokenFor } from './token.js';
import type { StepDeps } from './types.js';

/** The gpg warm-up, then a Maven session (settings holding the token) around `run`. */
export async function withMavenSession<T>(
  { ctx, options, proc, signing }: StepDeps,
  fingerprint: string | undefined,
  run: (session: MavenSession) => Promise<T>,
): Promise<T> {
  await warmGpgAgent(ctx, proc, fingerprint ?? signing?.fingerprint);
  const token = await mavenTokenFor(ctx);
  const session = await openMavenSession(
    {
      root: ctx.cwd,
      env: ctx.env,
      ...(ctx.config.settings === undefined ? {} : { userSettings: ctx.config.settings }),
      ...(ctx.config.localRepo === undefined ? {} : { localRepo: ctx.config.localRepo }),
      ...(token === undefined ? {} : { token }),
      ...(signing?.passphrase === undefined ? {} : { gpgPassphrase: signing.passphrase }),
      checksums: ctx.config.checksums,
      note: (line) => ctx.out.info(`  ${line}`),
    },
    options.dryRun,
  );
  try {
    return await run(session);
  } finally {
    await session.dispose();
  }
}
