/**
 * The exact command lines of the release procedure (seed part 4.6, 4.7; DESIGN §6), as pure
 * argv builders so tests can assert them without running a build tool. Secrets never appear
 * here: Maven reads credentials from a settings file, Gradle from ORG_GRADLE_PROJECT_* variables.
 */

export interface Invocation {
  command: string;
  args: string[];
  /** Hand the terminal to the tool (its prompts), instead of capturing its output. */
  interactive: boolean;
  /** Text written to the tool's stdin (Gradle's version prompts). */
  input?: string;
  /** What the invocation is for, for spinners and errors. */
  purpose: string;
}

export interface ReleaseVersions {
  version: string;
  nextVersion: string;
  tag: string;
}

export interface MavenCommon {
  /** `./mvnw` when the project ships the wrapper, else `mvn`. */
  executable: string;
  /** Settings file to pass with -s (a generated one holding the token, or the user's own). */
  settingsFile?: string;
  /** -Dmaven.repo.local. */
  localRepo?: string;
}

function mavenTail(common: MavenCommon): string[] {
  const tail: string[] = [];
  if (common.settingsFile !== undefined) tail.push('-s', common.settingsFile);
  if (common.localRepo !== undefined) tail.push(`-Dmaven.repo.local=${common.localRepo}`);
  return tail;
}

export function mavenReleaseProperties(v: ReleaseVersions): string[] {
  return [
    '-DautoVersionSubmodules=true',
    `-DreleaseVersion=${v.version}`,
    `-DdevelopmentVersion=${v.nextVersion}`,
    `-Dtag=${v.tag}`,
  ];
}

export const mavenReleaseGoals = ['release:clean', 'release:prepare', 'release:perform'] as const;

/**
 * `mvn -B release:clean release:prepare release:perform -DautoVersionSubmodules=true
 * -DreleaseVersion=X.Y.Z -DdevelopmentVersion=X.Y.(Z+1)-SNAPSHOT -Dtag=<artifactId>-X.Y.Z`.
 * A component's first release runs the three goals as three invocations (seed 4.6). Interactive
 * mode drops -B and the properties: Maven prompts and Enter accepts its defaults.
 */
export function mavenReleaseInvocations(
  common: MavenCommon,
  v: ReleaseVersions,
  options: { firstRelease: boolean; interactive: boolean; extraArgs?: readonly string[] },
): Invocation[] {
  const head = options.interactive ? [] : ['-B'];
  const props = [...(options.interactive ? [] : mavenReleaseProperties(v)), ...(options.extraArgs ?? [])];
  const tail = mavenTail(common);
  const one = (goals: readonly string[]): Invocation => ({
    command: common.executable,
    args: [...head, ...goals, ...props, ...tail],
    interactive: options.interactive,
    purpose: goals.join(' '),
  });
  return options.firstRelease ? mavenReleaseGoals.map((g) => one([g])) : [one(mavenReleaseGoals)];
}

/**
 * Finishing a release whose release:prepare completed (release.properties says so):
 * `mvn -B release:perform`, which checks out the tag release.properties names. No version
 * properties: the versions and the tag are the ones prepare already committed.
 */
export function mavenPerformInvocation(common: MavenCommon, options: { interactive: boolean; extraArgs?: readonly string[] }): Invocation {
  return {
    command: common.executable,
    args: [...(options.interactive ? [] : ['-B']), 'release:perform', ...(options.extraArgs ?? []), ...mavenTail(common)],
    interactive: options.interactive,
    purpose: 'release:perform',
  };
}

/**
 * The nexus-staging route after verification: `mvn -B nexus-staging:deploy-staged` in the release
 * checkout uploads what the plugin staged locally, closes the staging repository (which hands it to
 * the portal) and, when the project configures autoReleaseAfterClose, releases it. The plugin's
 * configuration (nexusUrl, serverId) comes from the checkout's POM, as during the build.
 */
export function mavenDeployStagedInvocation(common: MavenCommon): Invocation {
  return { command: common.executable, args: ['-B', 'nexus-staging:deploy-staged', ...mavenTail(common)], interactive: false, purpose: 'nexus-staging:deploy-staged' };
}

/**
 * The pre-release prep goals (seed 4.7 item 4). The seed's ecosystem (an ecosystem parent that
 * provides <developers> from version 44, NOTICE files, license headers) configures these plugins:
 * notice generation with org.jasig.maven:maven-notice-plugin (`notice:generate`), license header
 * formatting with com.mycila:license-maven-plugin (`license:format`), and javadoc fixing with
 * maven-javadoc-plugin (`javadoc:fix`, `-Dforce` skips its "are you sure" prompt in batch mode).
 * A goal runs only when the project configures the plugin (`detect` matches the POM text).
 */
export interface PrepGoal {
  id: 'notice' | 'license' | 'javadoc';
  goal: string;
  /** Extra properties for batch mode. */
  properties: string[];
  /** Plugin artifactIds whose presence in a POM means the project configures it. */
  detect: readonly string[];
  title: string;
}

export const prepGoals: readonly PrepGoal[] = [
  { id: 'notice', goal: 'notice:generate', properties: [], detect: ['maven-notice-plugin'], title: 'notice generation' },
  {
    id: 'license',
    goal: 'license:format',
    properties: [],
    detect: ['license-maven-plugin', 'maven-license-plugin'],
    title: 'license header formatting',
  },
  { id: 'javadoc', goal: 'javadoc:fix', properties: ['-Dforce=true'], detect: ['maven-javadoc-plugin'], title: 'javadoc fixing' },
];

/** The prep goals a project configures, judged from the text of its POMs (reactor and parents). */
export function configuredPrepGoals(pomTexts: readonly string[]): PrepGoal[] {
  return prepGoals.filter((g) =>
    pomTexts.some((text) => g.detect.some((artifactId) => text.includes(`<artifactId>${artifactId}</artifactId>`))),
  );
}

export function mavenPrepInvocation(common: MavenCommon, goals: readonly PrepGoal[]): Invocation | undefined {
  if (goals.length === 0) return undefined;
  return {
    command: common.executable,
    args: ['-B', ...goals.map((g) => g.goal), ...goals.flatMap((g) => g.properties), ...mavenTail(common)],
    interactive: false,
    purpose: goals.map((g) => g.goal).join(' '),
  };
}

export function mavenInstallInvocation(common: MavenCommon): Invocation {
  return { command: common.executable, args: ['-B', 'install', ...mavenTail(common)], interactive: false, purpose: 'install' };
}

/** `mvn deploy` of the -SNAPSHOT as CI runs it, to the repository `id::url` (its <server> in the settings). */
export function mavenSnapshotDeployInvocation(common: MavenCommon, repository: { id: string; url: string }, extraArgs: readonly string[] = []): Invocation {
  return {
    command: common.executable,
    args: ['-B', 'deploy', `-DaltSnapshotDeploymentRepository=${repository.id}::${repository.url}`, ...extraArgs, ...mavenTail(common)],
    interactive: false,
    purpose: 'deploy (snapshot)',
  };
}

/**
 * Gradle with the researchgate release plugin: `clean release --no-parallel`. On a terminal it
 * prompts for the release version and then the next version; relctl answers both with the
 * computed versions. In CI, or when the versions were named (--release-version/--next-version),
 * the plugin's own non-interactive properties are passed instead.
 */
export function gradleReleaseInvocation(
  executable: string,
  v: ReleaseVersions,
  options: { ci: boolean; interactive: boolean; chosen?: boolean },
): Invocation {
  const args = ['clean', 'release', '--no-parallel'];
  if (options.interactive) return { command: executable, args, interactive: true, purpose: 'clean release' };
  if (options.ci || options.chosen === true) {
    args.push(
      '-Prelease.useAutomaticVersion=true',
      `-Prelease.releaseVersion=${v.version}`,
      `-Prelease.newVersion=${v.nextVersion}`,
    );
    return { command: executable, args, interactive: false, purpose: 'clean release' };
  }
  return { command: executable, args, interactive: false, input: `${v.version}\n${v.nextVersion}\n`, purpose: 'clean release' };
}

/**
 * The Gradle property names build scripts commonly read the staging token from, most specific
 * first (the order the token finder looks them up in the user's gradle.properties).
 */
export const gradleTokenProperties = [
  ['mavenCentralUsername', 'mavenCentralPassword'],
  ['centralUsername', 'centralPassword'],
  ['sonatypeUsername', 'sonatypePassword'],
  ['ossrhUsername', 'ossrhPassword'],
  ['ossrhTokenUsername', 'ossrhTokenPassword'],
] as const;

/**
 * The checksum files a vanniktech build publishes (its `mavenCentralChecksums` Gradle property,
 * 0.37.0+; older versions ignore it): `required` is .md5/.sha1 only, the Maven runs'
 * -Dchecksums=required. A project property through the environment, so every build the release
 * plugin starts sees it and the command line stays as it was.
 */
export function gradleChecksumsEnv(checksums: 'required' | 'all'): Record<string, string> {
  return { ORG_GRADLE_PROJECT_mavenCentralChecksums: checksums === 'all' ? 'md5,sha1,sha256,sha512' : 'md5,sha1' };
}

/** ORG_GRADLE_PROJECT_* variables carrying the token (never argv). */
export function gradleTokenEnv(username: string, password: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [u, p] of gradleTokenProperties) {
    env[`ORG_GRADLE_PROJECT_${u}`] = username;
    env[`ORG_GRADLE_PROJECT_${p}`] = password;
  }
  return env;
}

/** Shell-like rendering for `!` dry-run lines and error messages (quotes only where needed). */
export function displayCommand(command: string, args: readonly string[]): string {
  return [command, ...args].map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
}

function xmlEscape(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A Maven settings document that holds the token for `serverId`: the user's own settings (mirrors,
 * profiles, local repository kept) with that one <server> replaced, or a minimal document. Written
 * by the caller to a private temp file (mode 0600) that is deleted after the build.
 */
export function settingsWithServer(userSettings: string | undefined, serverId: string, username: string, password: string): string {
  const server = `<server><id>${xmlEscape(serverId)}</id><username>${xmlEscape(username)}</username><password>${xmlEscape(password)}</password></server>`;
  if (userSettings === undefined || !/<\/settings\s*>/.test(userSettings)) {
    return `<?xml version="1.0" encoding="UTF-8"?>\n<settings>\n  <servers>\n    ${server}\n  </servers>\n</settings>\n`;
  }
  // Drop an existing entry with the same id: Maven rejects duplicate server ids.
  const same = new RegExp(`<server>(?:(?!</server>)[\\s\\S])*?<id>\\s*${escapeRegExp(serverId)}\\s*</id>[\\s\\S]*?</server>`, 'g');
  const text = userSettings.replace(same, '');
  if (/<servers\s*>/.test(text)) return text.replace(/<servers\s*>/, (m) => `${m}\n    ${server}`);
  if (/<servers\s*\/>/.test(text)) return text.replace(/<servers\s*\/>/, `<servers>\n    ${server}\n  </servers>`);
  return text.replace(/<\/settings\s*>/, (m) => `  <servers>\n    ${server}\n  </servers>\n${m}`);
}

/**
 * What points a rehearsal's release build at the sandbox (issue 19 item 1), as `-D` system
 * properties in MAVEN_OPTS: the release plugin forks Maven for the preparation build and for
 * release:perform with the same environment, so every nested build sees them, whatever the
 * POM's `<arguments>`. The build's own commands stay exactly the release's.
 * - `altDeploymentRepository` in the `id::default::url` form: maven-deploy-plugin 2.x accepts only
 *   this one (`id::url` is "Invalid syntax for alternative repository"), 3.x still accepts it.
 * - `goals=deploy`: release:perform 2.x adds `site-deploy` when the POM declares a site, which
 *   would publish to the project's real site server.
 * - `gpg.keyname` picks the rehearsal's key (gpg.useagent comes with every Maven session).
 * - `skipTests` only when asked (rehearse --skip-tests): a real release runs the tests.
 */
export function rehearsalRedirect(o: { repositoryId: string; deployUrl: string; keyname?: string; skipTests?: boolean }): string[] {
  return [
    `-DaltDeploymentRepository=${o.repositoryId}::default::${o.deployUrl}`,
    '-Dgoals=deploy',
    ...(o.keyname === undefined ? [] : [`-Dgpg.keyname=${o.keyname}`]),
    ...(o.skipTests === true ? ['-DskipTests'] : []),
  ];
}

/**
 * Points the root POM's `<scm>` connections at `url` (the rehearsal's throwaway bare remote), so
 * release:prepare pushes its commits and tag there and release:perform clones the tag back from
 * there. A POM without its own `<scm>` (inherited) gets one. Text patch: formatting kept.
 */
export function withScmConnection(pomText: string, url: string): string {
  const connection = `scm:git:${url}`;
  const uncommented = pomText.replace(/<!--[\s\S]*?-->/g, (c) => ' '.repeat(c.length));
  // The project's own <scm>: the first one outside <profiles> (a profile rarely carries one).
  const profiles = /<profiles\s*>[\s\S]*?<\/profiles\s*>/.exec(uncommented);
  const re = /<scm\s*>[\s\S]*?<\/scm\s*>/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(uncommented)) !== null) {
    if (profiles !== null && m.index > profiles.index && m.index < profiles.index + profiles[0].length) continue;
    let block = pomText.slice(m.index, m.index + m[0].length);
    for (const tag of ['connection', 'developerConnection']) {
      const element = `<${tag}>${xmlEscape(connection)}</${tag}>`;
      const own = new RegExp(`<${tag}\\s*>[\\s\\S]*?</${tag}\\s*>`);
      block = own.test(block) ? block.replace(own, () => element) : block.replace(/<\/scm\s*>$/, (end) => `${element}${end}`);
    }
    return pomText.slice(0, m.index) + block + pomText.slice(m.index + m[0].length);
  }
  const scm = `  <scm><connection>${xmlEscape(connection)}</connection><developerConnection>${xmlEscape(connection)}</developerConnection></scm>\n`;
  return pomText.replace(/<\/project\s*>(?![\s\S]*<\/project)/, (end) => `${scm}${end}`);
}

/**
 * A repository Maven resolves from before Maven Central (Debian's file:///usr/share/maven-repo on
 * a machine with few downloads) in a settings text. Not a mirror of everything: the release
 * build needs maven-release-plugin, which Debian does not package, so Central stays behind it.
 */
export function settingsWithMirror(settings: string, url: string): string {
  const u = xmlEscape(url);
  const repo = (tag: string): string =>
    `<${tag}><id>relctl-mirror</id><url>${u}</url><releases><checksumPolicy>ignore</checksumPolicy></releases><snapshots><enabled>false</enabled></snapshots></${tag}>`;
  const block =
    `  <profiles><profile><id>relctl-mirror</id><repositories>${repo('repository')}</repositories>` +
    `<pluginRepositories>${repo('pluginRepository')}</pluginRepositories></profile></profiles>\n` +
    `  <activeProfiles><activeProfile>relctl-mirror</activeProfile></activeProfiles>\n`;
  // Replace the user's own mirrors/profiles: the rehearsal resolves from this repository, then Central.
  const stripped = settings.replace(/<(mirrors|profiles|activeProfiles)>[\s\S]*?<\/\1>/g, '');
  return stripped.replace(/<settings(\s[^>]*)?>/, (m) => `${m}\n${block}`);
}
