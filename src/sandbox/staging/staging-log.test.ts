import { appendFileSync, mkdtempSync, readdirSync, rmSync, statSync, truncateSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { StagingLog } from './staging-log.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tempLog(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'relctl-log-'));
  dirs.push(dir);
  return path.join(dir, 'r.log');
}

test('a reopened log serves the newest version of every file', () => {
  const file = tempLog();
  const log = new StagingLog(file);
  log.append('g/a/1/a-1.pom', Buffer.from('old'));
  log.append('g/a/1/a-1.jar', Buffer.alloc(70_000, 7));
  log.append('g/a/1/a-1.pom', Buffer.from('new'));
  log.close();
  const again = new StagingLog(file);
  expect(again.paths().sort()).toEqual(['g/a/1/a-1.jar', 'g/a/1/a-1.pom']);
  expect(again.read('g/a/1/a-1.pom')?.toString()).toBe('new');
  expect(again.read('g/a/1/a-1.jar')?.equals(Buffer.alloc(70_000, 7))).toBe(true);
  expect(again.read('missing')).toBeUndefined();
  again.close();
});

test('a torn last record (kill -9 mid-write) is cut off and the log keeps working', () => {
  const file = tempLog();
  const log = new StagingLog(file);
  log.append('g/a/1/a-1.pom', Buffer.from('pom'));
  log.close();
  const whole = statSync(file).size;
  const header = Buffer.alloc(8);
  header.writeUInt32LE(13, 0);
  header.writeUInt32LE(1000, 4);
  appendFileSync(file, Buffer.concat([header, Buffer.from('g/a/1/a-1.jar'), Buffer.from('only part')]));
  const again = new StagingLog(file);
  expect(statSync(file).size).toBe(whole);
  expect(again.paths()).toEqual(['g/a/1/a-1.pom']);
  again.append('g/a/1/a-1.jar', Buffer.from('jar'));
  again.close();
  const third = new StagingLog(file);
  expect(third.read('g/a/1/a-1.jar')?.toString()).toBe('jar');
  expect(third.read('g/a/1/a-1.pom')?.toString()).toBe('pom');
  third.close();
});

test('a log far larger than any read buffer (a 2.5 GiB sparse tail) opens from its headers, cut back to its whole records, no descriptor left', () => {
  const file = tempLog();
  const log = new StagingLog(file);
  log.append('g/a/1/a-1.pom', Buffer.from('pom'));
  log.close();
  const whole = statSync(file).size;
  truncateSync(file, 2.5 * 1024 ** 3);
  const fds = readdirSync('/proc/self/fd').length;
  const again = new StagingLog(file);
  expect(again.cutBytes).toBe(2.5 * 1024 ** 3 - whole);
  expect(statSync(file).size).toBe(whole);
  expect(again.read('g/a/1/a-1.pom')?.toString()).toBe('pom');
  again.close();
  expect(readdirSync('/proc/self/fd').length).toBe(fds);
});

test('a record claiming more bytes than 2 GiB is indexed without reading them', () => {
  const file = tempLog();
  const header = Buffer.alloc(8);
  header.writeUInt32LE(13, 0);
  header.writeUInt32LE(3 * 1024 ** 3 - 1, 4);
  appendFileSync(file, Buffer.concat([header, Buffer.from('g/a/1/a-1.jar')]));
  truncateSync(file, 8 + 13 + 3 * 1024 ** 3 - 1);
  const fds = readdirSync('/proc/self/fd').length;
  const log = new StagingLog(file);
  expect([log.paths(), log.cutBytes]).toEqual([['g/a/1/a-1.jar'], 0]);
  log.close();
  expect(readdirSync('/proc/self/fd').length).toBe(fds);
});
