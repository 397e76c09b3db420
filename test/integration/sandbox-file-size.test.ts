/**
 * The sandbox's staging API has no per-file cap below the portal's bundle limit (1 GiB): a big
 * war stages as it does on the real service. The limit itself is injectable, so no test writes 1 GiB.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { startSandbox, stage } from './upload-helpers.js';

type Sb = Awaited<ReturnType<typeof startSandbox>>;
const started: Sb[] = [];
afterAll(async () => {
  for (const sb of started) await sb.close();
});

const war = (bytes: number) => new Map([['org/example/big/1.0.0/big-1.0.0.war', Buffer.alloc(bytes, 7)]]);

describe('sandbox: staged file sizes', () => {
  it('accepts a staged file over 64 MiB (the old per-file cap)', async () => {
    const sb = await startSandbox();
    started.push(sb);
    await expect(stage(sb, war(65 * 1024 * 1024))).resolves.toBeUndefined();
  });

  it('refuses a file over the bundle limit with 413 before reading it', async () => {
    const sb = await startSandbox({ maxBundleBytes: 2 * 1024 * 1024 });
    started.push(sb);
    await expect(stage(sb, war(3 * 1024 * 1024))).rejects.toThrow(/413/);
    await expect(stage(sb, war(1536 * 1024))).resolves.toBeUndefined();
  });
});
