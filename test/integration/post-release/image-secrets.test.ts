import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRegistry, type LoopbackRegistry } from '../../helpers/registry.js';
import { imageFixture, type ImageFixture } from './image-fixture.js';

// A canary in every secret variable relctl knows; buildah (through the recording wrapper) must
// see none of them but the registry password, and that one only on the login's stdin.
const password = 'Registry-Canary-5e21';
const canaries: Record<string, string> = {
  RELCTL_REGISTRY_PASSWORD: password,
  RELCTL_GITHUB_TOKEN: 'ghp_GithubCanary0b7f',
  RELCTL_SMTP_URL: 'smtp://mailer:Smtp-Canary-93aa@127.0.0.1:1',
  RELCTL_TOKEN_USERNAME: 'Portal-User-Canary-1c',
  RELCTL_TOKEN_PASSWORD: 'Portal-Pass-Canary-2d',
  RELCTL_TOKEN_EXTRA: 'Token-Family-Canary-3e',
  RELCTL_JIRA_TOKEN: 'Jira-Canary-4f',
};
const secrets = [...Object.values(canaries), 'Smtp-Canary-93aa', Buffer.from(`bot:${password}`).toString('base64')];
const sha256 = (s: string): string => createHash('sha256').update(s).digest('hex');

let fx: ImageFixture;
let registry: LoopbackRegistry;

beforeAll(async () => {
  fx = await imageFixture();
  await mkdir(path.join(fx.dir, 'registry'));
  registry = await startRegistry(path.join(fx.dir, 'registry'), { user: 'bot', password });
  await fx.configure({ name: `${registry.host}/example/secret-demo` });
});
afterAll(async () => {
  await registry?.[Symbol.asyncDispose]();
  await fx?.[Symbol.asyncDispose]();
});

/** Every file below `root` (git's object store aside), with its text. */
async function filesBelow(root: string): Promise<{ file: string; text: string }[]> {
  const out: { file: string; text: string }[] = [];
  for (const entry of await readdir(root, { withFileTypes: true, recursive: true })) {
    const file = path.join(entry.parentPath, entry.name);
    if (!entry.isFile() || file.includes(`${path.sep}.git${path.sep}`)) continue;
    out.push({ file, text: await readFile(file, 'latin1') });
  }
  return out;
}

describe('relctl image and secrets', () => {
  it('buildah inherits no secret variable, sees the registry password only on the login stdin, and nothing printed or written holds one (plain, --verbose, --json)', async () => {
    const printed: string[] = [];
    for (const flags of [[], ['--verbose'], ['--json'], ['--json', '--verbose']]) {
      const r = await fx.relctl(['image', '--builder', 'buildah', ...flags], { ...canaries, RELCTL_REGISTRY_USERNAME: 'bot' });
      expect(r.exitCode, r.stderr).toBe(0);
      printed.push(r.stdout, r.stderr);
    }
    const environments = await fx.environments();
    expect(environments).toContain('CONTAINERS_STORAGE_CONF=');
    expect(environments).not.toMatch(/^RELCTL_(REGISTRY|TOKEN|GITHUB|SMTP|JIRA)/m);
    const calls = await fx.calls();
    const logins = calls.split('argv: ').filter((c) => / login /.test(c));
    expect(logins).toHaveLength(4);
    for (const login of logins) expect(login).toContain(`stdin: ${sha256(password)}`);
    const others = calls.split('argv: ').filter((c) => c !== '' && !/ login /.test(c));
    for (const other of others) expect(other).toContain(`stdin: ${sha256('')}`);
    const written = [...(await filesBelow(fx.project)), ...(await filesBelow(fx.home)), ...(await filesBelow(fx.tmp))];
    for (const secret of secrets) {
      expect(environments, secret).not.toContain(secret);
      expect(calls, secret).not.toContain(secret);
      for (const text of printed) expect(text, secret).not.toContain(secret);
      for (const { file, text } of written) expect(text, `${file} holds ${secret}`).not.toContain(secret);
    }
    expect(await fx.authDirsLeft()).toEqual([]);
  });
});
