#!/usr/bin/env node
// Makes the code caches of bundle/cli.cjs and its chunks for a profile (see bin/load-bundle.cjs),
// and the preflight pack with its cache: loads the bundle with the profile's V8 flags, runs a few
// commands in this process so their functions are compiled, and writes what V8 compiled. The
// warm-up projects are generated in a temporary folder with their own HOME, so nothing of the
// machine's own configuration is read. Called by scripts/bundle.mjs.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

const require = createRequire(import.meta.url);
const { chunkCacheFile, loadBundle, packFile, packSource } = require('../bin/load-bundle.cjs');
const [profile, packOption, pack] = process.argv.slice(2);
if (profile !== 'short' && profile !== 'default') throw new Error(`unknown profile ${profile}`);
// `short` writes the preflight pack (the chunks a preflight loaded) and the chunks' caches;
// `short --pack preflight`, run after it in a new process, the pack's own cache.
if (packOption !== undefined && (packOption !== '--pack' || pack !== 'preflight' || profile !== 'short')) throw new Error(`unknown options ${process.argv.slice(3).join(' ')}`);

const { exports: cli, scripts } = loadBundle(profile, { useCache: false, ...(pack === undefined ? {} : { pack }) });
const work = mkdtempSync(path.join(os.tmpdir(), 'relctl-code-cache-'));
try {
  const home = path.join(work, 'home');
  mkdirSync(path.join(home, '.m2'), { recursive: true });
  // ${env.X} credentials, as a real settings file has them.
  writeFileSync(path.join(home, '.m2', 'settings.xml'), '<settings><servers><server><id>central</id><username>${env.WARM_USER}</username><password>${env.WARM_PASS}</password></server></servers></settings>\n');
  const env = { PATH: process.env.PATH ?? '', HOME: home, WARM_USER: 'code-cache-user', WARM_PASS: 'code-cache-password', GIT_CONFIG_NOSYSTEM: '1', NO_COLOR: '1', CI: 'true', LC_ALL: 'C' };
  const run = (argv) => cli.main(argv, { env, stdoutIsTTY: false, stderrIsTTY: false, stdinIsTTY: false });
  await run(['--help']);
  if (profile === 'short') {
    const maven = mavenProject(path.join(work, 'maven'), env);
    const gradle = gradleProject(path.join(work, 'gradle'));
    await run(['preflight', '--offline', '--json', '--cwd', maven]);
    await run(['preflight', '--offline', '--cwd', maven]);
    // The pack holds what a Maven preflight loads and its cache what that run compiled: V8 reads
    // a script's whole cache at once, so every other run's code in it would slow this one down.
    // The pack's own run ends here: the chunks' caches are the first run's.
    if (pack !== undefined) writeFileSync(chunkCacheFile(packFile(pack), profile), scripts.get(packFile(pack)).createCachedData());
    else {
      writeFileSync(packFile('preflight'), packSource([...scripts.keys()].map((file) => path.basename(file))));
      // Loaded on demand (a chunk each, outside the pack), warmed so that their runs start from a cache too.
      await run(['preflight', '--offline', '--format', 'github', '--cwd', gradle]);
      await run(['preflight', '--offline', '--format', 'sarif', '--cwd', maven]);
      await run(['preflight', '--offline', '--fix', '--dry-run', '--cwd', maven]);
    }
  }
  // One cache per chunk the warm-up loaded; a chunk it never loaded compiles as usual.
  if (pack === undefined) for (const [file, script] of scripts) writeFileSync(chunkCacheFile(file, profile), script.createCachedData());
} finally {
  rmSync(work, { recursive: true, force: true });
}

/** A small reactor (an aggregator, a jar and a war module), committed to git with a release tag. */
function mavenProject(dir, env) {
  const pom = (body) => `<?xml version="1.0" encoding="UTF-8"?>\n<project xmlns="http://maven.apache.org/POM/4.0.0">\n  <modelVersion>4.0.0</modelVersion>\n${body}\n</project>\n`;
  const parent = '<parent><groupId>org.example.warm</groupId><artifactId>warm-parent</artifactId><version>1.0.0-SNAPSHOT</version></parent>';
  mkdirSync(path.join(dir, 'core'), { recursive: true });
  mkdirSync(path.join(dir, 'web', 'src', 'main', 'webapp'), { recursive: true });
  writeFileSync(
    path.join(dir, 'pom.xml'),
    pom(`  <groupId>org.example.warm</groupId><artifactId>warm-parent</artifactId><version>1.0.0-SNAPSHOT</version><packaging>pom</packaging>
  <name>Warm</name><description>Warm-up</description><url>https://example.org/\${project.artifactId}</url>
  <licenses><license><name>Apache-2.0</name><url>https://www.apache.org/licenses/LICENSE-2.0</url></license></licenses>
  <developers><developer><name>W</name><email>w@example.org</email></developer></developers>
  <scm><url>https://example.org/git/warm</url></scm>
  <properties><project.build.sourceEncoding>UTF-8</project.build.sourceEncoding></properties>
  <distributionManagement><repository><id>central</id><url>https://ossrh-staging-api.central.sonatype.com/service/local/staging/deploy/maven2/</url></repository></distributionManagement>
  <build><plugins><plugin><artifactId>maven-release-plugin</artifactId><configuration><tagNameFormat>v@{project.version}</tagNameFormat></configuration></plugin></plugins></build>
  <modules><module>core</module><module>web</module></modules>`),
  );
  writeFileSync(path.join(dir, 'core', 'pom.xml'), pom(`  ${parent}\n  <artifactId>warm-core</artifactId><name>core</name>`));
  writeFileSync(path.join(dir, 'web', 'pom.xml'), pom(`  ${parent}\n  <artifactId>warm-web</artifactId><packaging>war</packaging><name>web</name>`));
  const git = (...args) => execFileSync('git', args, { cwd: dir, env: { ...env, GIT_AUTHOR_NAME: 'w', GIT_AUTHOR_EMAIL: 'w@example.org', GIT_COMMITTER_NAME: 'w', GIT_COMMITTER_EMAIL: 'w@example.org' }, stdio: 'ignore' });
  try {
    git('init', '-q', '-b', 'main');
    git('add', '-A');
    git('-c', 'commit.gpgSign=false', 'commit', '-q', '-m', 'warm');
    git('tag', 'v0.9.0');
  } catch {
    // no git: the warm-up still covers everything else
  }
  return dir;
}

function gradleProject(dir) {
  mkdirSync(path.join(dir, 'lib'), { recursive: true });
  writeFileSync(path.join(dir, 'settings.gradle.kts'), 'rootProject.name = "warm"\ninclude("lib")\n');
  writeFileSync(path.join(dir, 'gradle.properties'), 'group=org.example.warm\nversion=1.0.0-SNAPSHOT\n');
  writeFileSync(
    path.join(dir, 'lib', 'build.gradle.kts'),
    `plugins { \`java-library\`; \`maven-publish\`; signing }
publishing {
  publications { create<MavenPublication>("maven") { from(components["java"]); pom { name.set("lib"); url.set("https://example.org/warm") } } }
  repositories { maven { name = "central"; url = uri("https://ossrh-staging-api.central.sonatype.com/service/local/staging/deploy/maven2/") } }
}
`,
  );
  return dir;
}
