import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildToolCommand } from './wrapper.js';

describe('buildToolCommand (the wrapper rule)', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'relctl-wrapper-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  async function put(rel: string, mode = 0o644): Promise<void> {
    await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await writeFile(path.join(root, rel), 'x');
    await chmod(path.join(root, rel), mode);
  }

  it('runs the tool from PATH when the project has no wrapper, silently', async () => {
    expect(await buildToolCommand(root, 'maven')).toEqual({ executable: 'mvn' });
    expect(await buildToolCommand(root, 'gradle')).toEqual({ executable: 'gradle' });
  });

  it('runs an executable wrapper whose configuration exists', async () => {
    await put('mvnw', 0o755);
    await put('.mvn/wrapper/maven-wrapper.properties');
    await put('gradlew', 0o755);
    await put('gradle/wrapper/gradle-wrapper.properties');
    expect(await buildToolCommand(root, 'maven')).toEqual({ executable: './mvnw' });
    expect(await buildToolCommand(root, 'gradle')).toEqual({ executable: './gradlew' });
  });

  it('falls back to mvn, saying why, for a committed mvnw that is not executable (and has no .mvn/wrapper)', async () => {
    await put('mvnw', 0o644);
    expect(await buildToolCommand(root, 'maven')).toEqual({ executable: 'mvn', why: './mvnw is not executable: running mvn from PATH instead, as a maintainer would' });
  });

  it('falls back when the wrapper script runs but its configuration is missing', async () => {
    await put('mvnw', 0o755);
    await put('gradlew', 0o755);
    expect((await buildToolCommand(root, 'maven')).why).toBe('.mvn/wrapper/maven-wrapper.properties does not exist: running mvn from PATH instead, as a maintainer would');
    expect(await buildToolCommand(root, 'gradle')).toMatchObject({ executable: 'gradle', why: expect.stringContaining('gradle/wrapper/gradle-wrapper.properties does not exist') });
  });
});
