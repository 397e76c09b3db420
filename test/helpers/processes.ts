import { readFile, readdir } from 'node:fs/promises';

/** Live processes (zombies waiting for a reaper excepted) whose command line names `dir` (read from /proc). */
export async function processesUnder(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const pid of (await readdir('/proc')).filter((n) => /^\d+$/.test(n))) {
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    const state = (await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '')).replace(/^.*\) /s, '')[0];
    if (cmdline.includes(dir) && state !== undefined && state !== 'Z') found.push(`${pid} ${cmdline.split('\0').join(' ')}`);
  }
  return found;
}
