import { createHash } from 'node:crypto';
import { digestOf } from '../../keys/artifact-files.js';
import { fromMavenTargets } from '../../keys/artifacts.js';
import { portalSession } from '../../portal/session.js';
import type { CommandContext } from '../../io/command-context.js';

/** A published jar fetched back, and whether it is the file the rehearsal built. */
export interface FetchedFile {
  file: string;
  bytes: number;
  sha1: string;
  matchesBuild: boolean;
}

/** The portal's Publish, then each component's main jar fetched back from the public repository. */
export async function publishAndFetch(ctx: CommandContext, deploymentId: string, copy: string): Promise<FetchedFile[]> {
  const session = await portalSession(ctx);
  try {
    await session.portal.publish(deploymentId);
    let status = await session.portal.status(deploymentId);
    for (let i = 0; i < 60 && status.deploymentState !== 'PUBLISHED'; i++) {
      await new Promise((r) => setTimeout(r, 500));
      status = await session.portal.status(deploymentId);
    }
    const built = await fromMavenTargets(copy);
    const fetched: FetchedFile[] = [];
    for (const purl of status.purls) {
      const m = /^pkg:maven\/([^/]+)\/([^@]+)@(.+)$/.exec(purl);
      if (m === null) continue;
      const [, g, a, v] = m as unknown as [string, string, string, string];
      const p = `${g.replace(/\./g, '/')}/${a}/${v}/${a}-${v}.jar`;
      // A published file, not an API answer: the 4 MiB answer cap does not fit jars.
      const res = await session.http.request({ method: 'GET', url: `${ctx.config.publicRepoUrl}/${p}`, maxResponseBytes: 256 * 1024 * 1024 });
      if (res.status !== 200) continue;
      const sha1 = createHash('sha1').update(res.body).digest('hex');
      const local = built.files.get(p);
      fetched.push({ file: p, bytes: res.body.length, sha1, matchesBuild: local !== undefined && (await digestOf(local, 'sha1')) === sha1 });
    }
    return fetched;
  } finally {
    await session.http.close();
  }
}
