import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { git, gitEnv, gitRepo } from '../helpers/temp.js';
import { repoRoot } from '../helpers/cli.js';

/**
 * Shared set-up of the fast release tests: the demo reactor in a real git repo, fake tools on PATH.
 * The fake mvn covers the faults a real plugin cannot be made to produce on cue (crashes at step
 * boundaries, failing prep goals); the real plugins run in test/e2e/maven-release.
 */
export const fakeBin = path.join(repoRoot, 'test', 'fixtures', 'bin');
export const demoDir = path.join(repoRoot, 'examples', 'demo');

/** Copies examples/demo into `dir` as a fresh git repository, its deploy URL pointed at `stagingUrl`. */
export async function demoRepo(dir: string, home: string, options: { stagingUrl?: string; groupId?: string } = {}): Promise<void> {
  await cp(demoDir, dir, { recursive: true, filter: (src) => !/[\\/](target|\.relctl)$/.test(src) });
  for (const rel of ['pom.xml', 'core/pom.xml', 'webapp/pom.xml']) {
    const file = path.join(dir, rel);
    let text = await readFile(file, 'utf8');
    if (options.stagingUrl !== undefined) {
      text = text.replace('https://ossrh-staging-api.central.sonatype.com', options.stagingUrl.replace(/\/+$/, ''));
    }
    if (options.groupId !== undefined) text = text.split('org.example.relctl').join(options.groupId);
    await writeFile(file, text);
  }
  await writeFile(path.join(dir, '.gitignore'), 'target/\n');
  await gitRepo(dir, home, {});
}

/** `root/home` (an empty HOME) and `root/demo`, the demo reactor as a fresh git repository. */
export async function demoInTemp(root: string): Promise<{ dir: string; home: string }> {
  const home = path.join(root, 'home');
  await mkdir(home, { recursive: true });
  const dir = path.join(root, 'demo');
  await demoRepo(dir, home);
  return { dir, home };
}

export async function tags(dir: string, home: string): Promise<string[]> {
  return (await git(dir, home, 'tag', '--list')).split('\n').filter((t) => t !== '');
}

export async function subjects(dir: string, home: string): Promise<string[]> {
  return (await git(dir, home, 'log', '--format=%s')).split('\n').filter((t) => t !== '');
}

export interface Recorded {
  tool: string;
  cwd: string;
  args: string[];
  stdin?: string;
}

export async function recorded(log: string): Promise<Recorded[]> {
  const text = await readFile(log, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Recorded);
}

/** Env for runCli: isolated git, the fake tools first on PATH. */
export function releaseEnv(home: string, log: string, extra: Record<string, string> = {}): Record<string, string> {
  return { ...gitEnv(home), PATH: `${fakeBin}:${process.env.PATH ?? ''}`, RELCTL_FAKE_LOG: log, ...extra };
}

/** A public repository that holds exactly the given maven paths (everything else 404). */
export async function fakePublicRepo(published: Set<string>): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const p = decodeURIComponent((req.url ?? '/').replace(/^\/repo\//, '').split('?')[0]!);
    if (published.has(p)) {
      res.writeHead(200, { 'content-type': 'text/xml' });
      res.end('<project/>');
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/repo`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
