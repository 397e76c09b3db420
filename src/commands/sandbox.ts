import { stat } from 'node:fs/promises';
import { OutputClosedError, UsageError } from '../core/errors.js';
import type { PublishingLimits } from '../sandbox/server.js';
import type { Define } from './define.js';

interface UserSpec {
  name: string;
  password: string;
  namespaces?: string[];
  expires?: string;
}

/**
 * `NAME:PASSWORD[:NS,NS...[:YYYY-MM-DD]]` (repeatable; the namespaces may be empty). The password
 * may not hold a colon; names never do. The date is when the token expires (its start, UTC).
 */
export function parseUserSpec(value: string, previous: UserSpec[] = []): UserSpec[] {
  const [name, password, namespaces, expires, ...extra] = value.split(':');
  const bad = (why: string): never => {
    throw new UsageError(`--user ${value.replace(/:.*/, ':…')}: ${why}.`, {
      fix: 'Write --user NAME:PASSWORD, --user NAME:PASSWORD:org.example,com.example, or --user NAME:PASSWORD:org.example:2026-12-31 for a token that expires (repeat --user for more users).',
    });
  };
  if (name === undefined || name === '' || password === undefined || password === '') bad('a name and a password are required');
  if (extra.length > 0) bad('too many ":" (a password may not contain one)');
  const user: UserSpec = { name: name!, password: password! };
  if (expires !== undefined) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(expires) || Number.isNaN(Date.parse(`${expires}T00:00:00Z`))) bad('the expiry is a date such as 2026-12-31');
    user.expires = `${expires}T00:00:00Z`;
  }
  if (namespaces !== undefined && namespaces !== '') {
    const list = namespaces.split(',').map((n) => n.trim());
    if (list.some((n) => !/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/.test(n))) bad('namespaces are group ids such as org.example, comma-separated');
    user.namespaces = list;
  }
  if (previous.some((u) => u.name === user.name)) bad(`user ${user.name} is given twice`);
  return [...previous, user];
}

function parseSnapshotNamespaces(value: string): string[] {
  const list = value.split(',').map((n) => n.trim()).filter((n) => n !== '');
  if (list.length === 0 || list.some((n) => !/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/.test(n))) {
    throw new UsageError(`--snapshots ${value}: namespaces are group ids such as org.example, comma-separated.`, { fix: 'Write e.g. --snapshots org.example,io.github.someone.' });
  }
  return list;
}

function parseSmtpUser(value: string): { user: string; password: string } {
  const colon = value.indexOf(':');
  if (colon <= 0 || colon === value.length - 1) {
    throw new UsageError('--smtp-user needs NAME:PASSWORD.', { fix: 'Write e.g. --smtp-user mailer:secret.' });
  }
  return { user: value.slice(0, colon), password: value.slice(colon + 1) };
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) {
    throw new UsageError(`--port ${value}: not a port number.`, { fix: 'Pass a number from 0 to 65535 (0 picks any free port).' });
  }
  return port;
}

function parseControlToken(value: string): string {
  if (!/^[\x21-\x7e]{16,200}$/.test(value)) {
    throw new UsageError('--control-token: 16 to 200 printable characters without spaces are required.', {
      fix: 'Pass a long random value (openssl rand -hex 24), or leave the option out for a random token per start.',
    });
  }
  return value;
}

/** `files=300,bytes=15MB,releases=3` (parsed by the sandbox, loaded only when given). */
async function parseLimitsOption(value: string): Promise<unknown> {
  const { parseLimits } = await import('../sandbox/portal/limits.js');
  try {
    return parseLimits(value);
  } catch (error) {
    throw new UsageError(`--limits ${value}: ${(error as Error).message}.`, { fix: 'Write for example --limits files=300,bytes=15MB,releases=3 (any of the three).' });
  }
}

export const define: Define = (program, action) => {
  program
    .command('sandbox')
    .description('start the local stand-in of the staging API, portal, public repository, key servers, GitHub and Jira')
    .option('--port <n>', 'port on 127.0.0.1 (0 = any free port)', parsePort, 0)
    .option('--data-dir <dir>', 'keep state and files here across restarts (default: a temporary folder removed on exit)')
    .option('--seed-repo <dir>', 'a Maven-layout folder the public repository serves (parent POMs, existing versions)')
    .option('--user <name:password[:ns,...]>', 'a token user and the namespaces it alone owns (repeatable; default sandbox:sandbox; a user without namespaces gets every namespace nobody owns)', parseUserSpec)
    .option('--control-token <token>', 'the X-Sandbox-Token state-changing /sandbox/* calls need (default: random per start, shown as controlToken)', parseControlToken)
    .option('--snapshots <ns,...>', "namespaces whose SNAPSHOTs are enabled for the portal's snapshot repository (<portalUrl>/repository/maven-snapshots/; default: none, a snapshot deploy gets 403 until POST /sandbox/snapshots enables it)")
    .option('--accept-unconfirmed-keys', 'let keys whose e-mail address was never confirmed on the primary key server validate signatures')
    .option('--close-publishes', 'a Nexus 2 staging close (finish, bulk/close) publishes at once (default: it waits VALIDATED for a promote)')
    .option('--limits <spec>', 'publishing limits per organization (an account\'s namespaces together) and month, e.g. files=300,bytes=15MB,releases=3 (default: none)')
    .option('--smtp-port <n>', 'SMTP listener port on 127.0.0.1 (0 = any free port)', parsePort, 0)
    .option('--smtp-user <name:password>', 'require SMTP AUTH with this user (default: anyone may send)', parseSmtpUser)
    .option(
      '--git-root <dir>',
      'serve the bare repositories DIR/OWNER/NAME.git over git\'s smart HTTP at <githubGitUrl>/OWNER/NAME.git (a push needs a token) and list them in GET /github/api/orgs/OWNER/repos;' +
        ' each repository\'s config may set sandbox.archived, sandbox.fork, sandbox.private (true/false), sandbox.topics (a,b) and sandbox.description; its HEAD names the default branch',
    )
    .action(
      action(async (ctx, opts) => {
        const { startSandbox } = await import('../sandbox/server.js');
        const users = opts.user as UserSpec[] | undefined;
        const limits = typeof opts.limits === 'string' ? ((await parseLimitsOption(opts.limits)) as PublishingLimits) : undefined;
        const gitRoot = typeof opts.gitRoot === 'string' ? opts.gitRoot : undefined;
        if (gitRoot !== undefined && (await stat(gitRoot).catch(() => undefined))?.isDirectory() !== true) {
          throw new UsageError(`--git-root ${gitRoot}: not a folder.`, { fix: 'Pass a folder holding OWNER/NAME.git bare repositories (git init --bare DIR/OWNER/NAME.git).' });
        }
        const sandbox = await startSandbox({
          port: opts.port as number,
          ...(typeof opts.controlToken === 'string' ? { controlToken: opts.controlToken } : {}),
          ...(opts.acceptUnconfirmedKeys === true ? { acceptUnconfirmedKeys: true } : {}),
          ...(opts.closePublishes === true ? { closePublishes: true } : {}),
          ...(limits !== undefined ? { limits } : {}),
          ...(typeof opts.snapshots === 'string' ? { snapshotNamespaces: parseSnapshotNamespaces(opts.snapshots) } : {}),
          ...(typeof opts.dataDir === 'string' ? { dataDir: opts.dataDir } : {}),
          ...(typeof opts.seedRepo === 'string' ? { seedRepo: opts.seedRepo } : {}),
          ...(users !== undefined ? { users } : {}),
          ...(gitRoot !== undefined ? { gitRoot } : {}),
          smtpPort: opts.smtpPort as number,
          ...(opts.smtpUser === undefined ? {} : { smtpAuth: opts.smtpUser as { user: string; password: string } }),
          log: (line) => ctx.out.error(line),
        }).catch((error: unknown) => {
          const code = (error as NodeJS.ErrnoException).code;
          if (code === 'EADDRINUSE' || code === 'EACCES') {
            throw new UsageError(`Port ${String(opts.port)} on 127.0.0.1 is not available (${code}).`, {
              fix: 'Pass another --port, or --port 0 for any free port.',
            });
          }
          const where = (error as NodeJS.ErrnoException).path;
          if (typeof code === 'string' && ['ENOTDIR', 'EEXIST', 'EROFS', 'ENOENT', 'EPERM'].includes(code) && where !== undefined) {
            throw new UsageError(`${where}: cannot be used as a sandbox folder (${code}).`, {
              fix: 'Pass a --data-dir (and --seed-repo) that is a folder relctl can create and write, or leave --data-dir out for a temporary one.',
            });
          }
          throw error;
        });
        // Owning SIGINT/SIGTERM (cli.ts then leaves them to us): close cleanly and exit 0. A closed
        // stdout or stderr (its reader went away) aborts ctx.signal: a server nobody hears any more
        // closes as cleanly (temp folder removed), and cli.ts ends it quietly with 141 (DESIGN §3).
        // The sandbox notices at its next write: stdout gets only the ready line, stderr its log.
        const stopped = new Promise<NodeJS.Signals | 'output closed'>((resolve) => {
          // Once stopping, the signals are cli.ts's again: a Ctrl-C while closing stops relctl.
          const stop = (why: NodeJS.Signals | 'output closed'): void => {
            process.off('SIGINT', stop);
            process.off('SIGTERM', stop);
            resolve(why);
          };
          process.on('SIGINT', stop);
          process.on('SIGTERM', stop);
          // cli.ts also aborts it (without a reason) on the signals above.
          const onAbort = (): void => {
            if (ctx.signal.reason instanceof OutputClosedError) stop('output closed');
          };
          if (ctx.signal.aborted) onAbort();
          else ctx.signal.addEventListener('abort', onAbort, { once: true });
        });
        const ready = {
          ...sandbox.urls,
          users: sandbox.users.map((u) => ({ name: u.name, password: u.password, namespaces: u.namespaces ?? null, ...(u.expires === undefined ? {} : { expires: u.expires }) })),
          controlToken: sandbox.controlToken,
          ...(sandbox.gitRoot === undefined ? {} : { gitRoot: sandbox.gitRoot }),
        };
        // The SMTP password is the caller's own (--smtp-user): a harness needs the URL as it is.
        if (ready.smtpUrl !== undefined) ctx.out.showAsGiven(ready.smtpUrl);
        if (ctx.out.json) ctx.out.resultJson(ready);
        else {
          const who = ready.users.map((u) => `${u.name}:${u.password}${u.namespaces === null ? '' : `:${u.namespaces.join(',')}`}`);
          ctx.out.result(
            `sandbox ready stagingApiUrl=${ready.stagingApiUrl} portalUrl=${ready.portalUrl} publicRepoUrl=${ready.publicRepoUrl}` +
              ` keyserverUrl=${ready.keyserverUrl} secondaryKeyserverUrl=${ready.secondaryKeyserverUrl}` +
              ` githubApiUrl=${ready.githubApiUrl} jiraUrl=${ready.jiraUrl} smtpUrl=${ready.smtpUrl} users=${who.join(';')}` +
              ` controlToken=${ready.controlToken}` +
              (ready.githubGitUrl === undefined ? '' : ` githubGitUrl=${ready.githubGitUrl}`),
          );
          ctx.out.info(`Maven deploy URL: ${ready.stagingApiUrl}/service/local/staging/deploy/maven2/`);
          ctx.out.info(`Deployments page: ${ready.portalUrl}/publishing/deployments`);
          // The folder goes here, not on the ready line, whose key=value pairs a space would split.
          if (ready.gitRoot !== undefined) ctx.out.info(`Git repositories: ${ready.gitRoot}/OWNER/NAME.git at ${ready.githubGitUrl}/OWNER/NAME.git`);
          ctx.out.info('Press Ctrl-C to stop.');
        }
        const why = await stopped;
        ctx.out.verbose(`${why}: closing the sandbox`);
        await sandbox.close();
        if (why === 'output closed') throw ctx.signal.reason;
        return 0;
      }),
    );
};
