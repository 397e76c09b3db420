import { readFileSync } from 'node:fs';
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll } from 'vitest';
import { namespaceRootOf } from '../../../src/core/namespace.js';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/server.js';
import { repoRoot } from '../../helpers/cli.js';
import { createTestKey, type TestKey } from '../../helpers/gpg.js';
import { tempDir, type TempDir } from '../../helpers/temp.js';
import { testMavenOpts } from '../../helpers/maven-opts.js';
import { publishKeyConfirmed } from '../../integration/sandbox-fixture.js';
import { settingsXml } from '../maven-release/fixture.js';

/**
 * The Nexus 2 staging route's real clients against the sandbox (issue 28): test/fixtures/nexus2's
 * one-jar project, built and signed by Maven against .cache/m2, which scripts/maven-cache.sh fills
 * with the plugins below (test/fixtures/nexus2/plugin-versions.properties). Not `mvn -o`: Maven
 * refuses to deploy offline and the staging goals require online mode; as in test/e2e/maven-release,
 * the settings never refresh what the cache holds, and RELCTL_E2E_MAVEN_MIRROR=http://127.0.0.1:9/
 * proves a run needs no network.
 */

const fixtureDir = path.join(repoRoot, 'test', 'fixtures', 'nexus2');
export const mavenCache = path.join(repoRoot, '.cache', 'm2');

function properties(file: string): Record<string, string> {
  return Object.fromEntries(
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => /^[A-Z_0-9]+=/.test(l))
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1).trim()]),
  );
}

/** Plugin versions: the release fixture's (gpg) and this route's clients. */
export const versions: Record<string, string> = {
  ...properties(path.join(repoRoot, 'test', 'fixtures', 'maven-release', 'plugin-versions.properties')),
  ...properties(path.join(fixtureDir, 'plugin-versions.properties')),
};

export interface Project {
  dir: string;
  groupId: string;
  /** The staging profile the account holds for it (the reverse domain): repository ids start with it. */
  namespace: string;
  /** `mvn -B` in the project, with the sandbox token in its settings and the test key for gpg. */
  mvn(args: string[], extraOpts?: string): Promise<{ exitCode: number; output: string }>;
  /** The bytes of a file of the published component in the sandbox's public repository (undefined: 404). */
  published(file: string): Promise<Buffer | undefined>;
}

export interface World {
  t: TempDir;
  sandbox: RunningSandbox;
  key: TestKey;
  /** The project with `publishing` (XML, `@STAGING@`/`@PORTAL@`/`@REPO@` filled in) as its publishing plugin. */
  project(name: string, publishing: string): Promise<Project>;
  /** The sandbox's deployments of a group: [name, state]. */
  deployments(groupId: string): Promise<[string, string][]>;
  /** The publishing types the sandbox recorded for a group's deployments. */
  publishingTypes(groupId: string): Promise<string[]>;
}

export function useWorld(): World {
  const world = {} as World;
  beforeAll(async () => {
    world.t = await tempDir('relctl-e2e-nexus2-');
    world.sandbox = await startSandbox();
    world.key = await createTestKey();
    await publishKeyConfirmed(world.sandbox, world.key);
    const home = path.join(world.t.path, 'home');
    await mkdir(home, { recursive: true });
    const settings = path.join(home, 'settings.xml');
    await writeFile(settings, settingsXml({ username: 'sandbox', password: 'sandbox' }));
    const origin = new URL(world.sandbox.urls.stagingApiUrl).origin;

    world.project = async (name, publishing) => {
      // Below its namespace (the sandbox account holds org.nexus2<name>), one namespace per project.
      const groupId = `org.nexus2${name}.lib`;
      const dir = path.join(world.t.path, name);
      await cp(path.join(fixtureDir, 'project'), dir, { recursive: true });
      const fill = (text: string): string =>
        text
          .replaceAll('@STAGING@', `${world.sandbox.urls.stagingApiUrl}/`)
          .replaceAll('@PORTAL@', world.sandbox.urls.portalUrl)
          .replaceAll('@REPO@', world.sandbox.urls.publicRepoUrl)
          .replace(/@([A-Z_0-9]+)@/g, (m, k: string) => ({ GROUP: groupId, VERSION: '1.0.0', ...versions })[k] ?? m);
      const pom = path.join(dir, 'pom.xml');
      await writeFile(pom, (await readFile(pom, 'utf8')).replace('@PUBLISHING@', fill(publishing)).replace(/@[A-Z_0-9]+@/g, fill));
      return {
        dir,
        groupId,
        namespace: namespaceRootOf(groupId),
        async mvn(args, extraOpts = '') {
          const r = await execa('mvn', ['-B', '-s', settings, `-Dmaven.repo.local=${mavenCache}`, ...args], {
            cwd: dir,
            env: { ...world.key.env, HOME: home, MAVEN_OPTS: `${testMavenOpts} ${extraOpts}`.trim() },
            reject: false,
            all: true,
            timeout: 300_000,
          });
          return { exitCode: r.exitCode ?? -1, output: String(r.all) };
        },
        async published(file) {
          const r = await fetch(`${world.sandbox.urls.publicRepoUrl}/${groupId.replaceAll('.', '/')}/greeting/1.0.0/${file}`);
          return r.status === 200 ? Buffer.from(await r.arrayBuffer()) : undefined;
        },
      };
    };
    const records = async (groupId: string): Promise<{ name: string; state: string; publishingType: string }[]> => {
      const state = (await (await fetch(`${origin}/sandbox/state`)).json()) as { deployments: { name: string; state: string; namespace: string; publishingType: string }[] };
      return state.deployments.filter((d) => d.namespace === namespaceRootOf(groupId));
    };
    world.deployments = async (groupId) => (await records(groupId)).map((d) => [d.name, d.state]);
    world.publishingTypes = async (groupId) => (await records(groupId)).map((d) => d.publishingType);
  });
  afterAll(async () => {
    await world.sandbox?.close();
    await world.key?.cleanup();
    await world.t?.[Symbol.asyncDispose]();
  });
  return world;
}

/** The files relctl compares byte for byte: the component's jars, POM and their signatures. */
export const componentFiles = ['greeting-1.0.0.jar', 'greeting-1.0.0-sources.jar', 'greeting-1.0.0-javadoc.jar', 'greeting-1.0.0.pom', 'greeting-1.0.0.jar.asc'];
