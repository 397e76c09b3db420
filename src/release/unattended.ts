import { UsageError } from '../core/errors.js';
import { openEnvKeyring, signingKeyFromEnv } from '../keys/env-key.js';
import type { CommandContext } from '../io/command-context.js';
import { runGit } from '../io/git.js';
import { stepDeps } from './options.js';
import { removeLeftoversOfKilledRuns } from './stale-runs.js';
import type { ChainOptions, StepDeps, StepId } from './types.js';

/**
 * What a release chain needs from its environment before the first step (DESIGN §12, the release
 * in CI): a git identity for the release commits, and the signing key when the environment holds
 * one (RELCTL_GPG_PRIVATE_KEY, else GPG_PRIVATE_KEY). That key lives in a throwaway GNUPGHOME for
 * exactly the chain's lifetime; every child of the chain gets GNUPGHOME pointing there.
 */
export async function withChainDeps<T>(ctx: CommandContext, options: ChainOptions, steps: readonly StepId[], run: (deps: StepDeps) => Promise<T>): Promise<T> {
  await removeLeftoversOfKilledRuns(ctx);
  if (steps.some((s) => s === 'prep' || s === 'build')) await checkGitIdentity(ctx, options.dryRun);
  const key = steps.some((s) => signingSteps.has(s)) ? signingKeyFromEnv(ctx.env) : undefined;
  if (key === undefined) return run(stepDeps(ctx, options));
  const keyring = await openEnvKeyring(key, ctx.env, ctx.config.fingerprint);
  try {
    ctx.out.info(`Signing key ${keyring.fingerprint} from ${key.keyVariable}, in a temporary GNUPGHOME removed when relctl ends`);
    ctx.out.verbose(`GNUPGHOME=${keyring.gnupgHome} for every gpg of this release (relctl's and the build's)`);
    const signedCtx: CommandContext = { ...ctx, env: { ...ctx.env, GNUPGHOME: keyring.gnupgHome } };
    return await run({ ...stepDeps(signedCtx, options), signing: { fingerprint: keyring.fingerprint, ...(key.passphrase === undefined ? {} : { passphrase: key.passphrase }) } });
  } finally {
    await keyring.dispose();
  }
}

/** The steps that read the key (preflight's signing checks, keys) or sign with it (prep's install, build). */
const signingSteps = new Set<StepId>(['preflight', 'keys', 'prep', 'build']);

/**
 * git commits the prep commit and the release plugin's two commits: without an identity (a CI
 * runner has none) they fail half-way through the release, after the tag may have been planned.
 * Only what the user set counts (GIT_AUTHOR_* / GIT_COMMITTER_* / EMAIL or user.email), never
 * git's guess from the host name. A dry run warns instead.
 */
async function checkGitIdentity(ctx: CommandContext, dryRun: boolean): Promise<void> {
  const set = (name: string): boolean => (ctx.env[name] ?? '').trim() !== '';
  if (set('EMAIL') || (set('GIT_AUTHOR_EMAIL') && set('GIT_COMMITTER_EMAIL'))) return;
  const configured = await runGit(ctx.cwd, ['config', '--get', 'user.email'], { env: ctx.env, signal: ctx.signal });
  if (configured.ok && configured.stdout.trim() !== '') return;
  const missing = ['GIT_AUTHOR_EMAIL', 'GIT_COMMITTER_EMAIL'].filter((n) => !set(n));
  const message = `git has no identity to make the release commits with: ${missing.join(' and ')} ${missing.length === 1 ? 'is' : 'are'} not set and no user.email is configured.`;
  const fix =
    'Set GIT_AUTHOR_NAME, GIT_AUTHOR_EMAIL, GIT_COMMITTER_NAME and GIT_COMMITTER_EMAIL in the job (or run `git config user.name ...` and `git config user.email ...` first), then run relctl release again.';
  if (dryRun) {
    ctx.out.warn(`${message} A real run would stop here. ${fix}`);
    return;
  }
  throw new UsageError(message, { kind: 'git-identity', fix });
}
