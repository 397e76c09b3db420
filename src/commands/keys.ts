import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { keyFindings, keyLookupErrors } from '../checks/online-keys.js';
import { EnvironmentError, ExitCode, UsageError, errorJson, failureJson } from '../core/errors.js';
import { toReport } from '../core/findings.js';
import { gatherKeyFacts } from '../keys/check.js';
import { exportArmored, refusedKeyserver } from '../keys/export.js';
import { resolveSigningKey, signingKeyInput } from '../keys/fingerprint.js';
import { hkpAddUrl, sendKeyHkp } from '../keys/hkp.js';
import { confirm, httpFor, keyServersFor } from '../portal/session.js';
import { findingsJson, findingsText } from '../ui/render/findings.js';
import type { Define } from './define.js';

export const define: Define = (program, action) => {
  const keys = program.command('keys').description('the signing key on the key servers: check, export, send');

  keys
    .command('check')
    .description('is the signing key on the primary key server, confirmed, unexpired, not only on a secondary?')
    .action(
      action(async (ctx) => {
        const key = resolveSigningKey(signingKeyInput(ctx));
        key.catch(() => undefined);
        const facts = await gatherKeyFacts(key, keyServersFor(ctx), ctx.config, {
          ...(ctx.config.fingerprint === undefined ? {} : { knownFingerprint: ctx.config.fingerprint }),
        });
        ctx.out.verbose(`checked ${facts.fingerprint ?? '?'} (${facts.source ?? '?'})`);
        const report = toReport(keyFindings(facts));
        const summary = {
          fingerprint: facts.fingerprint,
          source: facts.source,
          primary: facts.primary,
          secondary: facts.secondary,
          emails: facts.emails,
          expiresAt: facts.served?.expiresAt ?? null,
        };
        // A key server that could not be asked is an environment failure (exit 3), not a verdict.
        const unreachable = keyLookupErrors(facts);
        const failure =
          unreachable.length === 0
            ? undefined
            : new EnvironmentError(`The ${unreachable.map((e) => e.replace(/\.+$/, '')).join('; the ')}.`, {
                kind: 'keyserver-unavailable',
                fix: 'Check the network and --keyserver-url / --secondary-keyserver-url, then run relctl keys check again.',
              });
        if (ctx.out.json) {
          const notReady = failureJson('key-not-ready', 'The signing key is not ready for a release: see the findings.', 'Follow the fix of each finding.');
          const error = failure !== undefined ? errorJson(failure) : report.ok ? undefined : notReady;
          ctx.out.resultJson(findingsJson(failure === undefined ? report : { ...report, ok: false }, { key: summary, ...(error === undefined ? {} : { error }) }));
        } else {
          const state = (o: unknown): string => (typeof o === 'string' ? o : `error (${(o as { error: string }).error})`);
          ctx.out.info(`key ${facts.fingerprint} (${facts.source})`);
          ctx.out.info(`  primary ${facts.primaryUrl}: ${state(facts.primary)}; secondary ${facts.secondaryUrl}: ${state(facts.secondary)}`);
          for (const e of facts.emails) ctx.out.info(`  by address ${e.address}: ${state(e.outcome)}`);
          // A lookup without an answer: the check is not complete, whatever the findings say.
          ctx.out.result(failure === undefined ? findingsText(report, ctx.out.c, 'keys check') : findingsText({ ...report, ok: false }, ctx.out.c, 'keys check (incomplete: a key server could not be asked)'));
        }
        if (failure !== undefined) throw failure;
        return report.ok ? ExitCode.ok : ExitCode.failed;
      }),
    );

  keys
    .command('export')
    .description("write the armored public key for the primary key server's upload form")
    .option('--output <file>', 'where to write it, - for stdout (default: relctl-keys/<key id>.asc in the OS temp folder, outside the project)')
    .option('--keyring <file>', 'read the key from this keyring or key file (openpgp) instead of gpg')
    .action(
      action(async (ctx, opts) => {
        const keyring = typeof opts.keyring === 'string' ? path.resolve(ctx.cwd, opts.keyring) : undefined;
        const { fingerprint, armored } = await exportArmored({
          ...(keyring === undefined ? { resolve: () => resolveSigningKey(signingKeyInput(ctx)) } : { keyring }),
          env: ctx.env,
          ...(ctx.config.fingerprint === undefined ? {} : { fingerprint: ctx.config.fingerprint }),
        });
        // Never into the project by default: an untracked .asc there makes the worktree dirty.
        const toStdout = opts.output === '-';
        const file = toStdout ? undefined : typeof opts.output === 'string' ? path.resolve(ctx.cwd, opts.output) : path.join(os.tmpdir(), 'relctl-keys', `${fingerprint.slice(-16)}.asc`);
        if (file !== undefined) {
          await mkdir(path.dirname(file), { recursive: true });
          await writeFile(file, armored);
        }
        const form = keyServersFor(ctx).uploadFormUrl();
        const steps = [
          `1. Open ${form} and upload ${file ?? 'the key printed above'} (or paste its contents).`,
          "2. Ask for verification of your address; open the link the key server mails to it (without it, searches by address find nothing and the key is served without user ids).",
          '3. Run relctl keys check.',
        ];
        if (ctx.out.json) ctx.out.resultJson({ ok: true, fingerprint, ...(file === undefined ? { armored } : { file }), uploadFormUrl: form, steps });
        else if (file === undefined) {
          ctx.out.result(armored);
          ctx.out.info(steps.join('\n'));
        } else ctx.out.result([`Wrote the public key ${fingerprint} to ${file}`, ...steps].join('\n'));
        return ExitCode.ok;
      }),
    );

  keys
    .command('send')
    .description('send the key (exported with gpg) to the secondary key server over HKP (never the retired SKS pool)')
    .option('--dry-run', 'print the request, send nothing')
    .option('--yes', 'send without asking')
    .action(
      action(async (ctx, opts) => {
        const server = ctx.config.secondaryKeyserverUrl;
        const refused = refusedKeyserver(server);
        if (refused !== undefined) throw new UsageError(refused, { kind: 'retired-keyserver', fix: 'Use keyserver.ubuntu.com (--secondary-keyserver-url https://keyserver.ubuntu.com).' });
        const key = await resolveSigningKey(signingKeyInput(ctx));
        // The URL as given, path included (the call keeps it; gpg --send-keys would drop it).
        const shown = `POST ${hkpAddUrl(server)} (the public key ${key.fingerprint}, exported with gpg)`;
        if (opts.dryRun === true) {
          ctx.out.dryRunResult(shown, { fingerprint: key.fingerprint, request: `POST ${hkpAddUrl(server)}` }, `dry run: would send ${key.fingerprint} with ${shown}`);
          return ExitCode.ok;
        }
        if (!(await confirm(ctx, opts.yes === true, `Send key ${key.fingerprint} to ${server}?`))) {
          throw new UsageError('Not sent.', { fix: 'Run again and confirm, or pass --yes.' });
        }
        const { armored } = await exportArmored({ resolve: async () => key, env: ctx.env });
        const http = httpFor(ctx);
        try {
          await sendKeyHkp(http, server, armored);
        } finally {
          await http.close();
        }
        if (ctx.out.json) ctx.out.resultJson({ ok: true, fingerprint: key.fingerprint, keyserver: server });
        else {
          ctx.out.result(`Sent ${key.fingerprint} to ${server}.`);
          ctx.out.info('The secondary server is only a fallback: the key must be on the primary server too (relctl keys check).');
        }
        return ExitCode.ok;
      }),
    );
};
