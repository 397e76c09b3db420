import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { basic, call, deployUrl, manualUpload, publisher, putAll, signAll, useSandboxWithKey, withChecksums } from './sandbox-fixture.js';

/**
 * Bodies above the sandbox's in-memory threshold (1 MiB) go to disk as they arrive: what is
 * stored, validated and handed to the portal is byte for byte what was sent, and a body cut off
 * half-way leaves nothing behind.
 */
const w = useSandboxWithKey();

async function bigComponent(g: string, a: string, jarBytes: Buffer): Promise<Map<string, Uint8Array>> {
  const dir = `${g.replaceAll('.', '/')}/${a}/1.0.0/${a}-1.0.0`;
  const pom = `<project><modelVersion>4.0.0</modelVersion><groupId>${g}</groupId><artifactId>${a}</artifactId><version>1.0.0</version>
<name>${a}</name><description>d</description><url>https://example.org</url><licenses><license><name>MIT</name></license></licenses>
<developers><developer><id>me</id></developer></developers><scm><url>https://example.org/scm</url></scm></project>`;
  const files = new Map<string, Uint8Array>([
    [`${dir}.pom`, Buffer.from(pom)],
    [`${dir}.jar`, jarBytes],
    [`${dir}-sources.jar`, Buffer.from('sources')],
    [`${dir}-javadoc.jar`, Buffer.from('javadoc')],
  ]);
  return withChecksums(await signAll(files, w.key));
}

describe('big PUT bodies', () => {
  it('a 5 MiB jar is stored as sent, validated and handed over', async () => {
    const jar = randomBytes(5 * 1024 * 1024 + 3);
    const files = await bigComponent('org.example.bigput', 'lib', jar);
    expect(await putAll(w.sandbox, files)).toEqual([]);
    const back = await call(deployUrl(w.sandbox, 'org/example/bigput/lib/1.0.0/lib-1.0.0.jar'), { auth: basic('sandbox', 'sandbox') });
    expect(back.bytes.equals(jar)).toBe(true);
    const up = await manualUpload(w.sandbox, 'org.example');
    expect(up.status, up.text).toBe(200);
    const id = (up.json() as { deploymentId: string }).deploymentId;
    expect(((await publisher(w.sandbox, 'POST', `status?id=${id}`)).json() as { deploymentState: string }).deploymentState).toBe('VALIDATED');
  });

  it('a body cut off half-way stores nothing, and the repository takes files again', async () => {
    const path = '/staging/service/local/staging/deploy/maven2/org/example/cut/lib/1.0.0/lib-1.0.0.jar';
    await new Promise<void>((resolve, reject) => {
      const socket = net.connect(w.sandbox.port, '127.0.0.1', () => {
        socket.write(`PUT ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${basic('sandbox', 'sandbox')}\r\nContent-Length: ${4 * 1024 * 1024}\r\n\r\n`);
        socket.write(randomBytes(2 * 1024 * 1024), () => setTimeout(() => socket.destroy(), 100));
      });
      socket.on('close', () => resolve());
      socket.on('error', reject);
    });
    const url = deployUrl(w.sandbox, 'org/example/cut/lib/1.0.0/lib-1.0.0.jar');
    expect((await call(url, { auth: basic('sandbox', 'sandbox') })).status).toBe(404);
    const files = await bigComponent('org.example.cut', 'lib', randomBytes(2 * 1024 * 1024));
    expect(await putAll(w.sandbox, files)).toEqual([]);
    expect((await call(url, { auth: basic('sandbox', 'sandbox') })).bytes.equals(Buffer.from(files.get('org/example/cut/lib/1.0.0/lib-1.0.0.jar')!))).toBe(true);
    expect((await manualUpload(w.sandbox, 'org.example')).status).toBe(200);
  });
});
