import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Output } from './output.js';
import { startProgress, uploadProgressText } from './progress.js';

function output(json = false): { out: Output; stderr: () => string; stdout: () => string } {
  const err = new PassThrough();
  const std = new PassThrough();
  let e = '';
  let o = '';
  err.on('data', (d: Buffer) => (e += d.toString()));
  std.on('data', (d: Buffer) => (o += d.toString()));
  return { out: new Output({ json, verbose: false, color: false, interactive: false, stderr: err, stdout: std }), stderr: () => e, stdout: () => o };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('startProgress without a terminal', () => {
  it('prints nothing for short work, then a line every few seconds on stderr only, and nothing after stop', async () => {
    vi.useFakeTimers();
    const { out, stderr, stdout } = output(true);
    let done = 0;
    const progress = startProgress(out, () => `verify: ${done} of 3 files`, { everyMs: 5000 });
    await vi.advanceTimersByTimeAsync(4000);
    expect(stderr()).toBe('');
    done = 1;
    await vi.advanceTimersByTimeAsync(1000);
    done = 2;
    await vi.advanceTimersByTimeAsync(5000);
    progress.stop();
    await vi.advanceTimersByTimeAsync(20_000);
    expect(stderr()).toBe('verify: 1 of 3 files\nverify: 2 of 3 files\n');
    expect(stdout()).toBe('');
  });

  it('writes upload progress as bytes and percent', () => {
    expect(uploadProgressText(300 * 1024 * 1024, 1024 * 1024 * 1024)).toBe('upload: 300 MiB of 1.0 GiB (29%)');
  });
});
