import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { execa, type ResultPromise } from 'execa';
import { freePort } from './ports.js';

export interface LoopbackRegistry extends AsyncDisposable {
  /** 127.0.0.1:PORT */
  host: string;
  log: () => string;
}

/**
 * Debian's docker-registry (the distribution project's registry) on loopback, filesystem
 * storage in `dir`, htpasswd (bcrypt, via apache2-utils' htpasswd reading stdin) when `auth` is given.
 */
export async function startRegistry(dir: string, auth?: { user: string; password: string }): Promise<LoopbackRegistry> {
  const port = await freePort();
  const lines = ['version: 0.1', 'log:', '  level: warn', 'storage:', '  filesystem:', `    rootdirectory: ${path.join(dir, 'data')}`, 'http:', `  addr: 127.0.0.1:${port}`];
  if (auth !== undefined) {
    const entry = await execa('htpasswd', ['-iBn', auth.user], { input: `${auth.password}\n` });
    await writeFile(path.join(dir, 'htpasswd'), `${String(entry.stdout).trim()}\n`);
    lines.push('auth:', '  htpasswd:', '    realm: relctl-test', `    path: ${path.join(dir, 'htpasswd')}`);
  }
  const config = path.join(dir, 'registry.yml');
  await writeFile(config, `${lines.join('\n')}\n`);
  let output = '';
  const child: ResultPromise = execa('docker-registry', ['serve', config], { reject: false, all: true, buffer: false });
  child.all?.on('data', (d: Buffer) => (output += d.toString()));
  const host = `127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    const ok = await fetch(`http://${host}/v2/`).then((r) => r.status === 200 || r.status === 401, () => false);
    if (ok) break;
    if (i === 99) throw new Error(`docker-registry did not start: ${output}`);
    await sleep(100);
  }
  return {
    host,
    log: () => output,
    [Symbol.asyncDispose]: async () => {
      child.kill('SIGTERM');
      await child;
    },
  };
}

/** containers/storage for buildah in a temp folder (vfs), so tests never touch the machine's images. */
export async function buildahStorageEnv(dir: string): Promise<Record<string, string>> {
  const conf = path.join(dir, 'storage.conf');
  await writeFile(conf, `[storage]\ndriver = "vfs"\ngraphroot = "${path.join(dir, 'graph')}"\nrunroot = "${path.join(dir, 'run')}"\n`);
  return { CONTAINERS_STORAGE_CONF: conf };
}
