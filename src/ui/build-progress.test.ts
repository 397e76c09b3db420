import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Output } from './output.js';
import { trackBuild, withBuildProgress } from './build-progress.js';

function output(o: { interactive?: boolean; verbose?: boolean } = {}): { out: Output; stderr: () => string } {
  const err = new PassThrough();
  let e = '';
  err.on('data', (d: Buffer) => (e += d.toString()));
  return { out: new Output({ json: false, verbose: o.verbose ?? false, color: false, interactive: o.interactive ?? false, stderr: err, stdout: new PassThrough() }), stderr: () => e };
}

const lines = [
  '[INFO] Scanning for projects...',
  '[INFO] --- maven-release-plugin:3.3.1:prepare (default-cli) @ relctl-demo ---',
  '[INFO] [INFO] Building relctl demo 1.0.0                                         [1/3]',
  '[INFO] [INFO] Building jar: /tmp/x/core/target/relctl-demo-core-1.0.0.jar',
  '[INFO] [INFO] Building relctl demo core 1.0.0                                    [2/3]',
  '[INFO] --- maven-release-plugin:3.3.1:perform (default-cli) @ relctl-demo ---',
  '[INFO] [INFO] Building relctl demo 1.0.0                                         [1/3]',
];

afterEach(() => {
  vi.useRealTimers();
});

describe('trackBuild', () => {
  it('without a terminal: one line per goal or module, with the elapsed time', () => {
    const { out, stderr } = output();
    let now = 0;
    const tracker = trackBuild(out, undefined, 'Release build', () => now);
    for (const l of lines) {
      now += 5_000;
      tracker.onLine(l);
    }
    tracker.stop();
    expect(stderr()).toBe(
      [
        '  release:prepare · 10s',
        '  release:prepare · relctl demo 1.0.0 [1/3] · 15s',
        '  release:prepare · relctl demo core 1.0.0 [2/3] · 25s',
        '  release:perform · 30s',
        '  release:perform · relctl demo 1.0.0 [1/3] · 35s',
        '',
      ].join('\n'),
    );
  });

  it('on a terminal: the step spinner line shows goal, module and time, redrawn every second until stopped', async () => {
    vi.useFakeTimers();
    const { out, stderr } = output({ interactive: true });
    const shown: string[] = [];
    const spinner = { update: (t: string) => shown.push(t), succeed: () => undefined, fail: () => undefined, stop: () => undefined };
    let now = 0;
    const tracker = trackBuild(out, spinner, 'Release build', () => now);
    tracker.onLine(lines[1]!);
    tracker.onLine(lines[4]!);
    expect(shown.at(-1)).toBe('Release build · release:prepare · relctl demo core 1.0.0 [2/3] · 0s');
    now = 61_000;
    await vi.advanceTimersByTimeAsync(1000);
    expect(shown.at(-1)).toBe('Release build · release:prepare · relctl demo core 1.0.0 [2/3] · 1m 01s');
    tracker.stop();
    const count = shown.length;
    await vi.advanceTimersByTimeAsync(5000);
    expect(shown.length).toBe(count);
    expect(stderr()).toBe('');
  });

  it('with --verbose adds nothing: the build output itself is echoed', () => {
    const { out, stderr } = output({ verbose: true });
    const tracker = trackBuild(out, undefined, 'Release build');
    for (const l of lines) tracker.onLine(l);
    expect(stderr()).toBe('');
  });

  it('withBuildProgress watches the lines only while its work runs', async () => {
    const { out, stderr } = output();
    let listener: ((line: string) => void) | undefined;
    const proc = { watchLines: (l: (line: string) => void) => ((listener = l), () => (listener = undefined)) };
    await withBuildProgress(out, undefined, 'Release build', proc, async () => listener?.(lines[1]!));
    expect(listener).toBeUndefined();
    expect(stderr()).toMatch(/^ {2}release:prepare · \ds\n$/);
  });
});
