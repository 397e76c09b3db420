import { cp, mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { repoRoot } from './cli.js';

/** Debian's packaged Maven plugins; never written to (every run uses a scratch local repository). */
export const debianRepo = '/usr/share/maven-repo';

/**
 * The scratch local repository shared by every Maven run of the test suite (and across runs):
 * filling it copies ~20 MB from the Debian repository once. It holds nothing secret.
 */
export const sharedLocalRepo = path.join(os.tmpdir(), 'relctl-test-m2');

function xml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/**
 * A settings.xml that resolves everything from the Debian repository (file://) and holds the
 * token for the `<server>` whose id the deploy uses. Omit the user for "no credentials".
 */
export async function writeMavenSettings(
  file: string,
  server?: { username: string; password: string; id?: string },
): Promise<string> {
  // updatePolicy always: a plugin missing from the Debian repository in an earlier run (before
  // its package was installed) is cached as a failure in the shared local repository, and would
  // not be looked for again for a day; a file:// look-up costs nothing.
  const repo = (tag: string): string =>
    `<${tag}><id>central</id><url>file://${debianRepo}</url>` +
    `<releases><updatePolicy>always</updatePolicy><checksumPolicy>ignore</checksumPolicy></releases><snapshots><enabled>false</enabled></snapshots></${tag}>`;
  const servers =
    server === undefined
      ? ''
      : `<servers><server><id>${xml(server.id ?? 'central')}</id><username>${xml(server.username)}</username>` +
        `<password>${xml(server.password)}</password></server></servers>`;
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(
    file,
    `<settings>
  <mirrors><mirror><id>debian</id><mirrorOf>*</mirrorOf><url>file://${debianRepo}</url></mirror></mirrors>
  <profiles><profile><id>debian-repo</id>
    <repositories>${repo('repository')}</repositories>
    <pluginRepositories>${repo('pluginRepository')}</pluginRepositories>
  </profile></profiles>
  <activeProfiles><activeProfile>debian-repo</activeProfile></activeProfiles>
  ${servers}
</settings>
`,
  );
  return file;
}

export interface MavenResult {
  exitCode: number;
  /** stdout and stderr interleaved. */
  output: string;
}

/** Runs `mvn -B` with the scratch local repository; never rejects (check exitCode). */
export async function runMaven(
  args: string[],
  options: { cwd: string; settings: string; env?: Record<string, string>; timeoutMs?: number; localRepo?: string },
): Promise<MavenResult> {
  const result = await execa(
    'mvn',
    ['-B', '-s', options.settings, `-Dmaven.repo.local=${options.localRepo ?? sharedLocalRepo}`, ...args],
    {
      cwd: options.cwd,
      env: options.env,
      all: true,
      reject: false,
      timeout: options.timeoutMs ?? 180_000,
    },
  );
  return { exitCode: result.exitCode ?? -1, output: String(result.all ?? '') };
}

/** The deploy URL of a sandbox staging API, for -DaltDeploymentRepository. */
export function altDeployment(stagingApiUrl: string, id = 'central'): string {
  return `-DaltDeploymentRepository=${id}::${stagingApiUrl}/service/local/staging/deploy/maven2/`;
}

/**
 * Copies a bundled example (examples/<name>) to `dest`, setting every `1.0.0-SNAPSHOT` to
 * `version` as release:prepare would, so the copy can be deployed as a release.
 */
export async function copyExample(name: string, dest: string, version = '1.0.0'): Promise<string> {
  await cp(path.join(repoRoot, 'examples', name), dest, {
    recursive: true,
    filter: (src) => !src.split(path.sep).includes('target'),
  });
  for (const entry of await readdir(dest, { recursive: true })) {
    if (!entry.endsWith('pom.xml')) continue;
    const file = path.join(dest, entry);
    await writeFile(file, (await readFile(file, 'utf8')).replaceAll('1.0.0-SNAPSHOT', version));
  }
  return dest;
}
