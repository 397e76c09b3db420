import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { writeMavenSettings } from '../helpers/maven.js';
import { gitEnv, tempDir } from '../helpers/temp.js';
import { demoInTemp } from './release-fixture.js';

describe('relctl preflight --verbose', () => {
  it('prints what it read (POMs, settings, git calls, timings), never a secret', async () => {
    await using t = await tempDir();
    const { dir, home } = await demoInTemp(t.path);
    const secret = 'canary-verbose-secret-0b7e';
    const settings = path.join(home, '.m2', 'settings.xml');
    await writeMavenSettings(settings, { username: 'token-user-9f1', password: secret });
    const plain = await runCli(['preflight', '--offline', '--cwd', dir], { home, env: gitEnv(home) });
    const verbose = await runCli(['preflight', '--offline', '--verbose', '--cwd', dir], { home, env: gitEnv(home) });
    expect(verbose.exitCode, verbose.stderr).toBe(plain.exitCode);
    for (const line of ['read pom.xml: org.example.relctl:relctl-demo', 'read core/pom.xml', 'read webapp/pom.xml', `settings ${settings}: servers central`, '$ git status', 'git for-each-ref', 'ran the checks in']) {
      expect(verbose.stderr, line).toContain(line);
      expect(plain.stderr, line).not.toContain(line);
    }
    expect(verbose.stderr).toMatch(/read everything in \d+ ms/);
    expect(verbose.stdout + verbose.stderr).not.toContain(secret);
    expect(verbose.stdout + verbose.stderr).not.toContain('token-user-9f1');
  });
});
