import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Redactor } from '../core/redact.js';
import { bearerHeader, distributionRepositoryId, findToken, settingsServers } from './token.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});
async function home(files: Record<string, string>): Promise<string> {
  const d = await mkdtemp(path.join(os.tmpdir(), 'relctl-token-'));
  dirs.push(d);
  for (const [rel, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(d, rel)), { recursive: true });
    await writeFile(path.join(d, rel), text);
  }
  return d;
}

describe('token resolution', () => {
  it('builds the Bearer header from base64(user:password)', () => {
    expect(bearerHeader({ username: 'u', password: 'p', source: '' })).toBe(`Bearer ${Buffer.from('u:p').toString('base64')}`);
  });

  it('prefers RELCTL_TOKEN_*; refuses one half only', async () => {
    const h = await home({});
    const t = await findToken({ cwd: h, env: { HOME: h, RELCTL_TOKEN_USERNAME: 'user1', RELCTL_TOKEN_PASSWORD: 'pass1' }, redactor: new Redactor() });
    expect(t).toMatchObject({ username: 'user1', password: 'pass1' });
    await expect(findToken({ cwd: h, env: { HOME: h, RELCTL_TOKEN_USERNAME: 'user1' }, redactor: new Redactor() })).rejects.toThrow(/Only one/);
  });

  it('takes the Maven <server> whose id equals the distribution repository id, ${env.X} resolved, and registers it for redaction', async () => {
    const h = await home({
      '.m2/settings.xml':
        '<settings><servers><server><id>other</id><username>x1234</username><password>y1234</password></server><server><id>my-release</id><username>${env.TU}</username><password>secret-pw</password></server></servers></settings>',
      'project/pom.xml': '<project><distributionManagement><repository><id>my-release</id><url>https://x</url></repository></distributionManagement></project>',
    });
    const redactor = new Redactor();
    const t = await findToken({ cwd: path.join(h, 'project'), env: { HOME: h, TU: 'tokenuser' }, redactor });
    expect(t).toMatchObject({ username: 'tokenuser', password: 'secret-pw' });
    expect(redactor.redact('a secret-pw b tokenuser')).toBe('a *** b ***');
  });

  it('falls back to the Gradle user properties', async () => {
    const h = await home({ '.gradle/gradle.properties': 'mavenCentralUsername=guser\nmavenCentralPassword = gpass\n' });
    expect(await findToken({ cwd: h, env: { HOME: h }, redactor: new Redactor() })).toMatchObject({ username: 'guser', password: 'gpass' });
    expect(await findToken({ cwd: h, env: { HOME: h, GRADLE_USER_HOME: path.join(h, 'none') }, redactor: new Redactor() })).toBeUndefined();
  });

  it('reads settings servers and distribution ids, ignoring comments', () => {
    expect(distributionRepositoryId('<project><!-- <distributionManagement><repository><id>no</id></repository></distributionManagement> --></project>')).toBeUndefined();
    expect(settingsServers('<settings><servers><server><id>a</id><username>u</username></server></servers></settings>', {}).get('a')).toEqual({ username: 'u' });
  });
});
