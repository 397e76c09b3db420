import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { repoRoot } from './cli.js';
import { git } from './temp.js';

/**
 * A fleet of two git repositories made from the demo (examples/demo), for `relctl fleet rehearse`:
 * `example/fleet-parent`, the demo's parent POM alone (no modules, packaging pom, the staging API,
 * the gpg-cli signing profile, the release plugin), and `example/fleet-core`, the demo's jar
 * module alone, its own version 2.0.0-SNAPSHOT, whose <parent> is the parent's 1.0.0-SNAPSHOT.
 */
export const fleetDemoGroup = 'org.example.fleetrehearse';

export interface FleetDemo {
  /** The repos file, the child listed first: the order is the fleet's (parents first), not the file's. */
  repos: string;
  parentDir: string;
  childDir: string;
  /** The HOME every command of the test runs with (git's identity: test/helpers/temp.ts gitEnv). */
  home: string;
}

export async function fleetDemo(root: string): Promise<FleetDemo> {
  const home = path.join(root, 'home');
  await mkdir(home, { recursive: true });
  const parentDir = path.join(root, 'src', 'fleet-parent');
  const childDir = path.join(root, 'src', 'fleet-core');
  const demo = await readFile(path.join(repoRoot, 'examples', 'demo', 'pom.xml'), 'utf8');
  const parentPom = demo
    .replace('<groupId>org.example.relctl</groupId>', `<groupId>${fleetDemoGroup}</groupId>`)
    .replace('<artifactId>relctl-demo</artifactId>', '<artifactId>fleet-parent</artifactId>')
    .replace('<name>relctl demo</name>', '<name>relctl fleet rehearsal parent</name>')
    .replace(/\s*<modules>[\s\S]*?<\/modules>/, '');
  await commit(parentDir, home, { 'pom.xml': parentPom });
  const childPom = `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <parent>
    <groupId>${fleetDemoGroup}</groupId>
    <artifactId>fleet-parent</artifactId>
    <version>1.0.0-SNAPSHOT</version>
    <relativePath/>
  </parent>
  <artifactId>fleet-core</artifactId>
  <version>2.0.0-SNAPSHOT</version>
  <packaging>jar</packaging>
  <name>relctl fleet rehearsal core</name>
  <description>A child of the fleet's parent: one class.</description>
</project>
`;
  await mkdir(childDir, { recursive: true });
  await cp(path.join(repoRoot, 'examples', 'demo', 'core', 'src'), path.join(childDir, 'src'), { recursive: true });
  await commit(childDir, home, { 'pom.xml': childPom });
  const repos = path.join(root, 'repos.txt');
  await writeFile(repos, 'example/fleet-core src/fleet-core\nexample/fleet-parent src/fleet-parent\n');
  return { repos, parentDir, childDir, home };
}

async function commit(dir: string, home: string, files: Record<string, string>): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);
  await git(dir, home, 'init', '-q', '-b', 'main');
  await git(dir, home, 'add', '-A');
  await git(dir, home, 'commit', '-q', '-m', 'initial');
}
