import { describe, expect, it } from 'vitest';
import { openMavenSession } from '../../src/build-tools/maven-session.js';
import { tempDir } from '../helpers/temp.js';

/**
 * Fewer files against the publishing limits (DESIGN §5a): central-publishing-maven-plugin writes
 * .sha256/.sha512 for every file by default (its `checksums` user property, ALL); every Maven of a
 * release, forks included, gets `-Dchecksums=required` unless the user asks for all of them, and
 * the user's own MAVEN_OPTS still come after it (a -Dchecksums there wins).
 */
describe('the checksum files a release build writes', () => {
  it('asks for the required ones only by default, all of them with checksums "all"', async () => {
    await using t = await tempDir('maven-checksums-');
    const env = { ...process.env, HOME: t.path, MAVEN_OPTS: '-Xmx256m' };
    const required = await openMavenSession({ root: t.path, env }, true);
    const all = await openMavenSession({ root: t.path, env, checksums: 'all' }, true);
    try {
      expect(required.env!.MAVEN_OPTS!.startsWith('-Dchecksums=required -Xmx256m ')).toBe(true);
      expect(all.env!.MAVEN_OPTS).not.toContain('-Dchecksums');
    } finally {
      await required.dispose();
      await all.dispose();
    }
  });
});
