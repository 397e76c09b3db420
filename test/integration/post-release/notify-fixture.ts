import path from 'node:path';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/server.js';
import type { ReceivedMail } from '../../../src/sandbox/smtp/index.js';
import { runCli, type CliResult } from '../../helpers/cli.js';
import { git, gitRepo, tempDir, writeTree, type TempDir } from '../../helpers/temp.js';

/**
 * A component with releases 5.0.0 and 5.1.0 (both in the sandbox's public repository), one
 * change after 5.1.0, mail lists configured, and the sandbox's SMTP listener with AUTH.
 */
export const pom = `<project><modelVersion>4.0.0</modelVersion><groupId>org.example</groupId><artifactId>notification-portlet</artifactId><version>5.1.1-SNAPSHOT</version></project>\n`;
export const lists = { from: 'release@example.org', dev: 'dev@lists.example.org', user: ['users@lists.example.org'], announce: 'announce@lists.example.org' };
export const allLists = [lists.dev, ...lists.user, lists.announce];

export interface NotifyFixture extends AsyncDisposable {
  sandbox: RunningSandbox;
  dir: TempDir;
  project: string;
  home: string;
  /** relctl in the project, the public repository and (unless overridden) SMTP pointing at the sandbox. */
  relctl(args: string[], env?: Record<string, string>): Promise<CliResult>;
  /** What the sandbox's SMTP listener received (key server mails left out). */
  mailbox(): Promise<ReceivedMail[]>;
  /** POST /sandbox/faults. */
  fault(fault: Record<string, unknown>): Promise<void>;
}

export async function notifyFixture(options: { smtpPassword: string; subjects?: string[] }): Promise<NotifyFixture> {
  const dir = await tempDir('relctl-notify-');
  const seed = path.join(dir.path, 'seed');
  await writeTree(seed, Object.fromEntries(['5.0.0', '5.1.0'].map((v) => [`org/example/notification-portlet/${v}/notification-portlet-${v}.pom`, pom.replace('5.1.1-SNAPSHOT', v)])));
  const sandbox = await startSandbox({ smtpAuth: { user: 'mailer', password: options.smtpPassword }, seedRepo: seed });
  const project = path.join(dir.path, 'project');
  const home = path.join(dir.path, 'home');
  await gitRepo(project, home, { 'pom.xml': pom, 'relctl.config.json': JSON.stringify({ mail: lists }) });
  await git(project, home, 'tag', 'notification-portlet-5.0.0');
  for (const subject of ['fix: empty feed no longer breaks the portlet (#12)', ...(options.subjects ?? [])]) await git(project, home, 'commit', '-q', '--allow-empty', '-m', subject);
  await git(project, home, 'commit', '-q', '--allow-empty', '-m', '[maven-release-plugin] prepare release notification-portlet-5.1.0');
  await git(project, home, 'tag', 'notification-portlet-5.1.0');
  await git(project, home, 'commit', '-q', '--allow-empty', '-m', 'feat: mute a channel per user (#14)');
  const origin = `http://127.0.0.1:${sandbox.port}`;
  return {
    sandbox,
    dir,
    project,
    home,
    relctl: (args, env = {}) =>
      runCli([...args, '--cwd', project], { home, env: { RELCTL_PORTAL_URL: sandbox.urls.portalUrl, RELCTL_PUBLIC_REPO_URL: sandbox.urls.publicRepoUrl, RELCTL_SMTP_URL: sandbox.urls.smtpUrl!, ...env } }),
    mailbox: async () => ((await (await fetch(`${origin}/sandbox/mail`)).json()) as Partial<ReceivedMail>[]).filter((m): m is ReceivedMail => m.rcpt !== undefined),
    fault: async (fault) => {
      const res = await fetch(`${origin}/sandbox/faults`, { method: 'POST', headers: { 'x-sandbox-token': sandbox.controlToken, 'content-type': 'application/json' }, body: JSON.stringify(fault) });
      if (res.status !== 200) throw new Error(`fault not set: HTTP ${res.status} ${await res.text()}`);
    },
    [Symbol.asyncDispose]: async () => {
      await sandbox.close();
      await dir[Symbol.asyncDispose]();
    },
  };
}
