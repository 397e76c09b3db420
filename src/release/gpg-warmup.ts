import { StepFailedError } from '../core/errors.js';
import type { CommandContext } from '../io/command-context.js';
import type { ProcessRunner } from '../io/process-runner.js';

/**
 * One test signature before a batch build (DESIGN §10): a cold agent or a passphrase prompt then
 * happens now, at the start, instead of hanging or failing the build half-way through.
 */
export async function warmGpgAgent(ctx: CommandContext, proc: ProcessRunner, fingerprint: string | undefined): Promise<'warm' | 'no-gpg' | 'dry-run'> {
  const args = ['--batch', '--yes', '--armor', '--detach-sign', ...(fingerprint === undefined ? [] : ['--local-user', fingerprint]), '--output', '-'];
  if (proc.dryRun) {
    ctx.out.wouldDo(`gpg ${args.join(' ')} (one test signature to warm the agent)`);
    return 'dry-run';
  }
  let r;
  try {
    r = await proc.run({ command: 'gpg', args, cwd: ctx.cwd, input: 'relctl: warming the gpg agent\n', mutates: false, purpose: 'gpg test signature' });
  } catch {
    ctx.out.warn('gpg is not installed: skipping the agent warm-up (the build signs with its own configuration).');
    return 'no-gpg';
  }
  if (r.exitCode !== 0 && fingerprint === undefined && /no default secret key|secret key not available|no secret key/i.test(r.output)) {
    // No key configured and none in the keyring: the build signs some other way (or not at all).
    ctx.out.warn('gpg has no secret key here: skipping the agent warm-up.');
    return 'no-gpg';
  }
  if (r.exitCode !== 0) {
    throw new StepFailedError(`gpg could not make a test signature${fingerprint === undefined ? '' : ` with ${fingerprint}`}.\n${r.output.trim()}`, {
      kind: 'gpg-signing',
      fix: 'Check the key is in your keyring and its passphrase is available to gpg-agent (sign once by hand: echo x | gpg --clearsign), then run `relctl release --resume`.',
    });
  }
  return 'warm';
}
