import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliResult } from '../../helpers/cli.js';
import { notifyFixture, type NotifyFixture } from './notify-fixture.js';

/**
 * DESIGN §2: a canary in every secret variable relctl reads, and the GitHub token pasted into a
 * commit subject (the notes, hence the mails, carry it): no canary may reach stdout, stderr, a
 * file relctl wrote (journal, .eml) or a mail the SMTP listener received.
 */
const smtpPassword = 'smtpCanary-Q1w2e3r4';
const secrets: Record<string, string> = {
  RELCTL_GITHUB_TOKEN: 'ghp_CanaryGithubToken000000000000000001',
  RELCTL_REGISTRY_PASSWORD: 'registryCanary-Z9y8x7',
  RELCTL_TOKEN_USERNAME: 'tokenUserCanary-M5n6',
  RELCTL_TOKEN_PASSWORD: 'tokenPassCanary-K3l4j5',
};
const canaries = [smtpPassword, encodeURIComponent(smtpPassword), ...Object.values(secrets)];

let f: NotifyFixture;
beforeAll(async () => {
  f = await notifyFixture({ smtpPassword, subjects: [`fix: rotate the CI token (was ${secrets.RELCTL_GITHUB_TOKEN})`, `chore: registry login ${secrets.RELCTL_REGISTRY_PASSWORD}`] });
});
afterAll(async () => {
  await f?.[Symbol.asyncDispose]();
});

/** Every file below `dir` but git's own (the history holds the pasted token: relctl did not write it). */
async function filesBelow(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile() && !path.join(e.parentPath, e.name).includes(`${path.sep}.git${path.sep}`)).map((e) => path.join(e.parentPath, e.name));
}

describe('notify keeps every secret out of what it prints, writes and sends', () => {
  it('prerelease, announce and social in text, --json and --verbose', async () => {
    const out = path.join(f.dir.path, 'mails');
    const runs: CliResult[] = [];
    for (const mode of [[], ['--json'], ['--verbose']]) {
      for (const kind of ['prerelease', 'announce']) {
        const version = kind === 'prerelease' ? '5.1.1' : '5.1.0';
        // --resend: every mode really sends and writes (the journal would otherwise stop the second).
        runs.push(await f.relctl(['notify', kind, '--release-version', version, '--send', '--resend', ...mode], secrets));
        runs.push(await f.relctl(['notify', kind, '--release-version', version, '--output', out, '--resend', ...mode], secrets));
        runs.push(await f.relctl(['notify', kind, '--release-version', version, '--dry-run', '--send', ...mode], secrets));
      }
      runs.push(await f.relctl(['notify', 'social', '--release-version', '5.1.0', ...mode], secrets));
    }
    for (const r of runs) expect(r.exitCode, r.stderr).toBe(0);
    // The runs did what they say (a check that passes on empty output proves nothing).
    const mails = await f.mailbox();
    expect(mails.filter((m) => m.subject.startsWith('[ANN]'))).toHaveLength(9);
    expect(mails.some((m) => m.text.includes('rotate the CI token (was ***)'))).toBe(true);
    const written = await filesBelow(f.dir.path);
    expect(written.map((file) => path.basename(file))).toEqual(expect.arrayContaining(['journal.json', 'announce-notification-portlet-5.1.0.eml', 'prerelease-notification-portlet-5.1.1.eml']));
    expect(runs.some((r) => r.stderr.includes('smtp://mailer:***@127.0.0.1'))).toBe(true);

    const texts = [
      ...runs.flatMap((r) => [r.stdout, r.stderr]),
      ...mails.map((m) => `${m.subject}\n${m.text}`),
      ...(await Promise.all(written.map((file) => readFile(file, 'latin1')))),
    ];
    for (const canary of canaries) {
      const leaks = texts.filter((t) => t.includes(canary));
      expect(leaks, canary).toEqual([]);
    }
  });
});
