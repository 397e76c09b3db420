import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.js';
import { git, gitEnv, gitRepo, tempDir, type TempDir } from '../../helpers/temp.js';

/**
 * DESIGN §2/§11: the GitHub token never crosses a network in clear text. A plain-HTTP GitHub API
 * URL off loopback is a configuration error (exit 2) before any request, for every command that
 * talks to GitHub; https and loopback are accepted.
 */
let dir: TempDir;
let project: string;
const token = 'ghp_PlainHttpCanary000000000000000000000';

beforeAll(async () => {
  dir = await tempDir('relctl-gh-url-');
  project = path.join(dir.path, 'project');
  await gitRepo(project, dir.path, {
    'pom.xml': '<project><modelVersion>4.0.0</modelVersion><groupId>org.example</groupId><artifactId>demo</artifactId><version>1.0.1-SNAPSHOT</version></project>\n',
    'relctl.config.json': JSON.stringify({ tracker: { repo: 'example/demo' }, distribution: { repo: 'example/dist' } }),
  });
  await git(project, dir.path, 'tag', 'demo-1.0.0');
});
afterAll(async () => {
  await dir?.[Symbol.asyncDispose]();
});

const relctl = (args: string[], api: string) =>
  runCli([...args, '--cwd', project], {
    home: dir.path,
    env: { ...gitEnv(dir.path), RELCTL_GITHUB_API_URL: api, RELCTL_GITHUB_TOKEN: token, GH_CONFIG_DIR: path.join(dir.path, 'no-gh') },
    timeoutMs: 30_000,
  });

describe('a plain-HTTP GitHub API URL', () => {
  it('is refused off loopback (exit 2, naming the https form) by notes --publish and distribute', async () => {
    for (const args of [['notes', '--publish', '--offline', '--yes'], ['distribute', '--dry-run']]) {
      const r = await relctl(args, 'http://github.example.invalid/api/v3');
      expect(r.exitCode, `${args[0]}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain('plain HTTP on a host that is not loopback');
      expect(r.stderr).toContain('https://');
      expect(r.stderr + r.stdout).not.toContain(token);
    }
  });

  it('is accepted on loopback (the request is made: nothing listens there, so it fails later, not as a configuration error)', async () => {
    const r = await relctl(['distribute', '--dry-run'], 'http://127.0.0.1:9/api');
    expect(r.stderr).not.toContain('plain HTTP on a host that is not loopback');
  });
});
