import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notifyFixture, type NotifyFixture } from './notify-fixture.js';

// The fixture's public repository has 5.0.0 and 5.1.0; 5.0.1 was never published.
let f: NotifyFixture;
beforeAll(async () => {
  f = await notifyFixture({ smtpPassword: 'smtp-contract-pass' });
});
afterAll(async () => {
  await f?.[Symbol.asyncDispose]();
});
const noStack = (text: string): void => expect(text).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);

describe('notify announce|social speak only of a published version', () => {
  it('refuses a version the public repository does not have, naming relctl status; --force goes on', async () => {
    for (const kind of ['announce', 'social']) {
      const r = await f.relctl(['notify', kind, '--release-version', '5.0.1', ...(kind === 'announce' ? ['--send'] : [])]);
      expect(r.exitCode, r.stderr).toBe(1);
      expect(r.stderr).toContain('org.example:notification-portlet:5.0.1 is not on 127.0.0.1:');
      expect(r.stderr).toContain('relctl status');
      const json = await f.relctl(['notify', kind, '--release-version', '5.0.1', '--json']);
      expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, error: { code: 'version-not-published' } });
    }
    expect((await f.mailbox()).some((m) => m.subject.includes('5.0.1'))).toBe(false);

    const forced = await f.relctl(['notify', 'announce', '--release-version', '5.0.1', '--send', '--force', '--yes']);
    expect(forced.exitCode, forced.stderr).toBe(0);
    expect(forced.stderr).toContain('going on because of --force');
    expect((await f.mailbox()).filter((m) => m.subject === '[ANN] notification-portlet 5.0.1 released')).toHaveLength(3);
    // A dry run warns and shows the rest.
    const dry = await f.relctl(['notify', 'social', '--release-version', '5.0.1', '--dry-run']);
    expect(dry.exitCode).toBe(0);
    expect(dry.stderr).toContain('(dry run: going on to show the rest)');
  });

  it('the pre-release notice is for a version not released yet', async () => {
    const r = await f.relctl(['notify', 'prerelease', '--release-version', '5.1.1', '--dry-run', '--send', '--yes']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('! send "[pre-release] notification-portlet 5.1.1 planned for');
  });

  it('the social post and the announcement name the repository the release is on, not Maven Central', async () => {
    const post = await f.relctl(['notify', 'social', '--release-version', '5.1.0']);
    expect(post.exitCode, post.stderr).toBe(0);
    expect(post.stdout).toContain(`notification-portlet 5.1.0 is out on 127.0.0.1:${f.sandbox.port}.`);
    const ann = await f.relctl(['notify', 'announce', '--release-version', '5.1.0']);
    expect(ann.stdout).toContain(`is on 127.0.0.1:${f.sandbox.port}:`);
    expect(post.stdout + ann.stdout).not.toContain('Maven Central');
  });
});

describe('notify: flags and small faults', () => {
  it('a bad --release-version is exit 2', async () => {
    const r = await f.relctl(['notify', 'announce', '--release-version', '1.0.0 ']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('not a release version');
  });

  it('an SMTP password with a bare % is exit 2 telling to write it as %25, with no stack', async () => {
    for (const args of [['--json'], ['--verbose']]) {
      const r = await f.relctl(['notify', 'prerelease', '--release-version', '5.1.1', '--send', ...args], { RELCTL_SMTP_URL: 'smtp://u:pa%ss@127.0.0.1:2525' });
      expect(r.exitCode, r.stderr).toBe(2);
      const text = r.stdout + r.stderr;
      expect(text).toContain('% that is not a percent-escape');
      expect(text).toContain('%25');
      expect(text).not.toContain('URIError');
      noStack(text);
    }
  });

  it('--output naming an existing file is exit 2, and nothing is written or journaled', async () => {
    const file = path.join(f.dir.path, 'not-a-folder.txt');
    await writeFile(file, 'x\n');
    const r = await f.relctl(['notify', 'prerelease', '--release-version', '5.1.1', '--output', file]);
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain('is a file, not a folder');
    noStack(r.stderr);
    const preflight = await f.relctl(['preflight', '--offline', '--json']);
    expect((JSON.parse(preflight.stdout) as { findings: { code: string }[] }).findings.map((x) => x.code)).toContain('prerelease-notice-missing');
  });
});
