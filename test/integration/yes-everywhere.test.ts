import { access, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { gitEnv, gitRepo, tempDir } from '../helpers/temp.js';

/**
 * DESIGN §1: every mutating command accepts `--yes`, even where it has nothing to ask (scripts pass
 * it to every command), and so does every fleet command (issue 41 item 10). Each runs through the
 * built CLI, in an empty project with its own HOME, as a dry run where it has one: whatever else it
 * says, `--yes` is never an unknown option.
 */
const commands: string[][] = [
  ['upload', '--dry-run', '--group-id', 'org.example'],
  ['publish', '--dry-run'],
  ['drop', '--dry-run'],
  ['keys', 'send', '--dry-run'],
  ['release', '--dry-run'],
  ['run', 'verify', '--dry-run'],
  ['notes', '--publish', '--dry-run'],
  ['distribute', '--dry-run'],
  ['smoke', '--dry-run'],
  ['image', '--dry-run'],
  ['notify', 'announce', '--dry-run'],
  ['preflight', '--fix', '--dry-run', '--offline'],
  ['init', '--dry-run'],
  ['fleet', 'list', '--repos', 'repos.txt'],
  ['fleet', 'audit', '--repos', 'repos.txt', '--offline'],
  ['fleet', 'fix', '--repos', 'repos.txt', '--offline', '--dry-run'],
  ['fleet', 'rehearse', '--repos', 'repos.txt', '--offline'],
  ['fleet', 'report', '--repos', 'repos.txt', '--offline'],
];

describe('--yes everywhere', () => {
  it('relctl init --fleet --yes writes the fleet workflow (there is nothing to ask)', async () => {
    await using t = await tempDir();
    const home = path.join(t.path, 'home');
    await gitRepo(t.path, home, { 'README.md': '# admin\n' });
    const r = await runCli(['init', '--fleet', '--org', 'acme', '--yes'], { cwd: t.path, home, env: gitEnv(home) });
    expect(r.exitCode, r.stderr).toBe(0);
    await access(path.join(t.path, '.github', 'workflows', 'relctl-fleet.yml'));
  });

  it.each(commands)('relctl %s … --yes: accepted', async (...args) => {
    await using t = await tempDir();
    const home = path.join(t.path, 'home');
    await gitRepo(t.path, home, { 'README.md': '# nothing to release\n' });
    await writeFile(path.join(t.path, 'repos.txt'), '# no repositories\n');
    const r = await runCli([...args, '--yes', '--workdir', path.join(t.path, 'work')].filter((a, i, all) => args[0] === 'fleet' || (a !== '--workdir' && all[i - 1] !== '--workdir')), {
      cwd: t.path,
      home,
      env: gitEnv(home),
    });
    expect(`${r.stdout}\n${r.stderr}`).not.toMatch(/unknown option '--yes'|--yes answers/);
  });
});
