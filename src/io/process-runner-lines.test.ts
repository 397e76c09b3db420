import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Output } from '../ui/output.js';
import { ProcessRunner } from './process-runner.js';

describe('ProcessRunner.watchLines', () => {
  it("hands a real child's output lines to the watcher, masked, and stops when unwatched", async () => {
    const out = new Output({ json: false, verbose: false, color: false, interactive: false, stderr: new PassThrough(), stdout: new PassThrough() });
    out.redactor.add('s3cr3t-token-value');
    const proc = new ProcessRunner(out, { PATH: process.env.PATH ?? '' }, false);
    const seen: string[] = [];
    const unwatch = proc.watchLines((l) => seen.push(l));
    const script = "printf '[INFO] Building demo 1.0.0 [1/2]\\n'; printf 'token s3cr3t-token-value\\n' >&2";
    await proc.run({ command: 'sh', args: ['-c', script], cwd: process.cwd(), mutates: false });
    unwatch();
    await proc.run({ command: 'sh', args: ['-c', 'echo later'], cwd: process.cwd(), mutates: false });
    expect(seen).toContain('[INFO] Building demo 1.0.0 [1/2]');
    expect(seen.join('\n')).not.toContain('s3cr3t-token-value');
    expect(seen.some((l) => l.startsWith('token '))).toBe(true);
    expect(seen).not.toContain('later');
  });
});
