import { lstat, mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { openMavenSession } from '../../src/build-tools/maven-session.js';
import { ownerMarker } from '../../src/io/owned-temp.js';
import { testMavenOpts } from '../helpers/maven-opts.js';
import { tempDir } from '../helpers/temp.js';

/**
 * Issue 37 item 5: a TMPDIR with a space. The session's private Maven home goes into MAVEN_OPTS
 * (-Duser.home, -Djava.io.tmpdir), which the real `mvn` launcher splits at spaces: the JVM then
 * stopped at "Could not find or load main class ace.relctl-settings-…" before Maven printed a line.
 * The cheapest real Maven (`mvn -v`) with the session's environment; -XshowSettings:properties
 * makes the JVM print the user.home it got.
 */
describe('the Maven session with a TMPDIR that has a space', () => {
  it('puts the private Maven home in a shell-safe temp folder (0700, marked), says so once, and the real mvn starts with it', async () => {
    await using t = await tempDir('maven-tmpdir-');
    const spaced = path.join(t.path, 'sp ace');
    await mkdir(spaced);
    const saved = process.env.TMPDIR;
    const notes: string[] = [];
    process.env.TMPDIR = spaced;
    let session;
    try {
      expect(os.tmpdir()).toBe(spaced);
      session = await openMavenSession(
        { root: t.path, env: { ...process.env, HOME: t.path, MAVEN_OPTS: `${testMavenOpts} -XshowSettings:properties` }, note: (line) => notes.push(line) },
        false,
      );
    } finally {
      process.env.TMPDIR = saved;
    }
    try {
      // What broke: the JVM never started.
      const r = await execa('mvn', ['-v'], { cwd: t.path, env: { ...process.env, HOME: t.path, TMPDIR: spaced, ...session.env }, reject: false, all: true, timeout: 60_000 });
      expect(r.all).not.toContain('Could not find or load main class');
      expect(r.exitCode).toBe(0);
      expect(r.all).toContain('Apache Maven');
      const home = /-Duser\.home=(\S+)/.exec(session.env!.MAVEN_OPTS!)?.[1];
      expect(r.all).toContain(`user.home = ${home}`);
      expect(r.all).toContain(`java.io.tmpdir = ${home}`);
      // Where the home went instead, and that the user is told.
      expect(path.dirname(home!)).not.toBe(spaced);
      expect(notes.filter((n) => n.includes('TMPDIR'))).toEqual([expect.stringContaining(`${spaced} (TMPDIR)`)]);
      const st = await lstat(home!);
      expect(st.mode & 0o777).toBe(0o700);
      expect(st.uid).toBe(process.getuid!());
      expect((await lstat(path.join(home!, ownerMarker))).isFile()).toBe(true);
    } finally {
      await session.dispose();
    }
  });
});
