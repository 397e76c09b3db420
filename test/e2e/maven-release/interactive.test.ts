import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { binPath } from '../../helpers/cli.js';
import { remoteTags, sandboxState, tail, useWorld, type ReleaseProject } from './fixture.js';

/**
 * `relctl release --interactive` on a pseudo-terminal (util-linux `script`): Maven runs without -B
 * and without the version properties, the real release plugin asks its questions, and Enter
 * accepts every default.
 */
const w = useWorld();

const ansi = /\u001b\[[0-9;?]*[A-Za-z]/g;

/** Runs relctl in a pty; answers Enter to every prompt the release plugin prints. Bounded by `timeoutMs`. */
function onTerminal(p: ReleaseProject, args: string[], timeoutMs: number): Promise<{ code: number | null; output: string; prompts: string[] }> {
  const command = ['node', binPath, ...args, '--cwd', p.dir].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const env: Record<string, string> = { ...(process.env as Record<string, string>), ...p.env, TERM: 'dumb', NO_COLOR: '1' };
  delete env.CI;
  const child = spawn('script', ['-qefc', command, '/dev/null'], { cwd: p.dir, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  let answered = 0;
  const prompts: string[] = [];
  const onData = (chunk: Buffer): void => {
    output += chunk.toString('utf8').replace(ansi, '').replace(/\r/g, '');
    const last = output.slice(output.lastIndexOf('\n') + 1);
    // The plugin's prompts end with ": " and no newline, e.g. `What is the release version for "x"? (g:a) 1.0.0: :`
    if (/\?.*:\s*$/.test(last) && output.length > answered) {
      answered = output.length;
      prompts.push(last.trim());
      child.stdin.write('\n');
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output, prompts });
    });
  });
}

describe('relctl release --interactive through a pseudo-terminal', () => {
  it("hands the terminal to the plugin's prompts; Enter accepts the defaults", async () => {
    const p = await w.project({ name: 'interactive' });
    const r = await onTerminal(p, ['release', '--interactive', '--yes'], 420_000);
    expect(r.code, r.output).toBe(0);
    expect(r.output).toContain('state: VALIDATED');
    // Three release versions (autoVersionSubmodules is not passed), the tag, three development versions.
    expect(r.prompts.filter((x) => x.includes('release version'))).toHaveLength(3);
    expect(r.prompts.filter((x) => /SCM release tag/i.test(x))).toHaveLength(1);
    expect(r.prompts.filter((x) => x.includes('new development version'))).toHaveLength(3);
    expect(await p.calls()).toEqual([
      ['-B', 'install', ...tail(p)],
      ['release:clean', ...tail(p)],
      ['release:prepare', ...tail(p)],
      ['release:perform', ...tail(p)],
    ]);
    expect(await remoteTags(p)).toEqual(['e2e-parent-1.0.0']);
    expect((await sandboxState(w.sandbox)).deployments.filter((d) => d.namespace === p.namespace).map((d) => d.state)).toEqual(['VALIDATED']);
  });
});
