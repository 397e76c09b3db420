/**
 * Reading a failed Maven build (issue 19 item 4): the first `[ERROR]` lines, the nested build the
 * release plugin forked (the command a maintainer can run by hand), and a decoded cause where the
 * pattern is known. Pure; tested on recorded real output (recorded/). Every decoded cause says
 * what relctl saw; none claims the build fails outside relctl (relctl did not run it there).
 */

export interface DecodedCause {
  /**
   * Stable id: `jdk-too-new`, `jdk-too-old`, `java-home`, `gpg-batch`, `plugin-classpath`,
   * `deploy-credentials`, `deploy-syntax`, `deploy-unreachable`, `offline`, `tests`, `jvm-options`.
   */
  code: string;
  message: string;
  fix: string;
}

export interface MavenFailure {
  /** The first distinct `[ERROR]` lines (nested builds' indentation removed), without Maven's help boilerplate. */
  errors: string[];
  /** The last build the release plugin forked before the failure (`clean verify ...`, `deploy ...`), by hand. */
  forked?: { dir: string; command: string };
  /** The goal that failed first: `org.jasig.maven:maven-notice-plugin:1.0.6.1:check`. */
  goal?: string;
  cause?: DecodedCause;
}

export interface FailureFacts {
  /** The major version of the JDK the build ran on (17). */
  jdk?: number;
  /** Major versions of the JDKs installed on this machine, to say when none fits. */
  installedJdks?: readonly number[];
  /** The rehearsal may suggest rehearsal-only switches (--skip-tests). */
  rehearsal: boolean;
  /** Where relctl put the release repository's `<server>` (a 401/403 on deploy names it). */
  serverSettings?: string;
}

const boilerplate = /^(-> \[Help \d+\]|To see the full stack trace|Re-run Maven using|For more information about the errors|\[Help \d+\] http|After correcting the problems|\s*mvn <args> -rf|-{5,}|realm =|strategy =|urls\[\d+\]|Number of foreign imports|import: Entry|$)/;

/** `[ERROR] x` lines, nested (indented) ones included, in order, boilerplate out. */
function errorLines(output: string): string[] {
  const out: string[] = [];
  for (const raw of output.split('\n')) {
    // release plugin 3.x (its invoker) prefixes the forked build's lines with `[INFO] `.
    const m = /^\s*(?:\[INFO\] )?\[ERROR\]\s?(.*)$/.exec(raw.replace(/\r$/, ''));
    if (m === null) continue;
    const text = m[1]!.trimEnd();
    if (boilerplate.test(text.trim()) || out.includes(text)) continue;
    out.push(text);
  }
  return out;
}

/** Splits the release plugin's `/bin/sh -c` line: `'quoted'` words (3.x) or bare ones (2.x). */
function shellWords(text: string): string[] {
  return [...text.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)].map((m) => (m[1] !== undefined ? m[1].replace(/'\\''/g, "'") : m[2]!));
}

function quoteWord(w: string): string {
  return /^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`;
}

/**
 * The last Maven the release plugin forked (`Executing: /bin/sh -c cd DIR && .../mvn -s TMP ...`),
 * as a maintainer runs it: `mvn` by name, without the plugin's temporary settings copy.
 */
function forkedBuild(output: string): MavenFailure['forked'] {
  const lines = [...output.matchAll(/Executing: \/bin\/sh -c cd (.+?) && (.*\bmvnw?'? .*)$/gm)];
  const last = lines.at(-1);
  if (last === undefined) {
    // release plugin 3.x runs the build through maven-invoker and names only its goals (its
    // <arguments> are not printed: the command holds the goals only).
    const goals = [...output.matchAll(/Executing goals '([^']+)'\.\.\./g)].at(-1);
    return goals === undefined ? undefined : { dir: '.', command: `mvn ${goals[1]}` };
  }
  const [dir] = shellWords(last[1]!);
  const words = shellWords(last[2]!);
  const args: string[] = [];
  for (let i = 1; i < words.length; i++) {
    if (words[i] === '-s' || words[i] === '--settings') i++;
    else args.push(words[i]!);
  }
  const tool = words[0]!.endsWith('mvnw') ? './mvnw' : 'mvn';
  return { dir: dir!, command: [tool, ...args].map(quoteWord).join(' ') };
}

const jdkDownload = 'a JDK of that version (e.g. Eclipse Temurin, or your distribution\'s openjdk package)';

function needsJdk(required: number, why: string, facts: FailureFacts): DecodedCause {
  const here = facts.installedJdks ?? [];
  const older = here.filter((v) => v <= required);
  const machine =
    older.length > 0
      ? `This machine has JDK ${older.join(', ')}: set JAVA_HOME to it.`
      : `This machine has ${here.length === 0 ? 'no other JDK' : `JDK ${here.join(' and ')} only`}, so the build cannot pass here: install ${jdkDownload}.`;
  return {
    code: 'jdk-too-new',
    message: `${why} The build needs JDK ${required}${facts.jdk === undefined ? '' : `; it ran on JDK ${facts.jdk}`}. ${machine}`,
    fix: `Run the build on JDK ${required}: JAVA_HOME=/path/to/jdk-${required} relctl ${facts.rehearsal ? 'rehearse' : 'release'} (Maven runs its plugins on the JDK of JAVA_HOME; .mvn/jvm.config only sets JVM options, and toolchains change only the compiler, javadoc and tests, not a plugin that runs inside Maven).`,
  };
}

/** The first [ERROR] `Failed to execute goal g:a:v:goal` names the failing plugin. */
function failingGoal(errors: readonly string[]): string | undefined {
  for (const e of errors) {
    const m = /Failed to execute goal ([\w.-]+:[\w.-]+:[\w.-]+:[\w-]+)/.exec(e);
    if (m !== null && !m[1]!.includes('maven-release-plugin')) return m[1];
  }
  return errors.map((e) => /Failed to execute goal ([\w.-]+:[\w.-]+:[\w.-]+:[\w-]+)/.exec(e)?.[1]).find((g) => g !== undefined);
}

function pluginOf(goal: string | undefined): string {
  if (goal === undefined) return 'a plugin';
  const [, a, v] = goal.split(':');
  return `${a} ${v}`;
}

/** `text`: the [ERROR] lines; `output`: everything (a test's own log shows why it failed). */
type Decoder = (text: string, goal: string | undefined, facts: FailureFacts, output: string) => DecodedCause | undefined;

/** A failure of the deploy itself (the upload), not of resolving what the build needs. */
const deploying = /Failed to deploy artifacts|Failed to retrieve remote metadata|maven-deploy-plugin:[\w.-]+:deploy/;

/**
 * The deploy's own failures (issue 27 item 3): refused credentials, the alternative-repository
 * syntax of maven-deploy-plugin 2.x, an unreachable server. `from/to <id> (<url>)` names the
 * repository whichever the wagon (`status: 401 Unauthorized`, or `Return code is: 401`).
 */
const deployDecoders: Decoder[] = [
  (text, _goal, facts) => {
    if (!deploying.test(text)) return undefined;
    const m = /(?:status: |Return code is: )(401|403)/.exec(text);
    if (m === null) return undefined;
    const repo = /from\/to ([^\s(]+) \(([^)\s]+)\)/.exec(text);
    const id = repo?.[1];
    const where = `${repo === null ? 'the repository' : `repository ${id} (${repo[2]})`}`;
    const status = m[1] === '401' ? '401 Unauthorized' : '403 Forbidden';
    const server =
      facts.serverSettings === undefined
        ? `Maven sends the <server> whose <id> is ${id ?? 'the repository id'} from its settings.xml.`
        : `relctl put the <server> ${id === undefined ? '' : `with <id>${id}</id> `}in ${facts.serverSettings}.`;
    return {
      code: 'deploy-credentials',
      message: `The deploy to ${where} was refused (${status}): ${m[1] === '401' ? 'the credentials were missing or wrong' : 'the credentials are not allowed to deploy there'}. ${server}`,
      fix: facts.rehearsal
        ? `The build deployed through a repository id or a Maven that did not get the sandbox's token: check that every deploy uses the id ${id ?? 'relctl redirects'} (relctl rehearse --verbose shows the commands and the redirect), then rehearse again.`
        : `Check the portal token (relctl preflight --online checks it): RELCTL_TOKEN_USERNAME and RELCTL_TOKEN_PASSWORD, or the <server> with <id>${id ?? '…'}</id> in your settings.xml, whose id must be the one the deploy uses; a 403 also comes from a namespace the token's account does not own. Then run relctl release --resume.`,
    };
  },
  (text, goal) =>
    /Invalid syntax for alternative repository/.test(text)
      ? {
          code: 'deploy-syntax',
          message: `${pluginOf(goal)} rejects the -DaltDeploymentRepository it was given: it accepts only the id::layout::url form (id::url came with maven-deploy-plugin 2.8+).`,
          fix: 'Pass -DaltDeploymentRepository=id::default::url, or pin maven-deploy-plugin 3.x in the POM.',
        }
      : undefined,
  (text, _goal, facts) => {
    if (!deploying.test(text) || !/Connection refused|Connect to \S+ .*failed/.test(text)) return undefined;
    const url = /from\/to [^\s(]+ \(([^)\s]+)\)/.exec(text)?.[1];
    return {
      code: 'deploy-unreachable',
      message: facts.rehearsal
        ? `The deploy could not reach the sandbox${url === undefined ? '' : ` (${url})`}: connection refused. The sandbox is relctl's own, started for this rehearsal; this is not about the project.`
        : `The deploy could not reach ${url ?? 'the repository'}: connection refused.`,
      fix: facts.rehearsal
        ? 'Rehearse again (the sandbox runs inside relctl for the rehearsal\'s length); if it happens again, report it with the output of relctl rehearse --verbose.'
        : 'Check the repository URL (the POM\'s distributionManagement, or RELCTL_STAGING_API_URL) and that this machine can reach it, then run relctl release --resume.',
    };
  },
];

/** Most specific first: JAXB before a plugin's missing class, a JDK problem before a test failure. */
const decoders: Decoder[] = [
  // The JVM never started, so there is no [ERROR] line: java took a word of the options for the
  // class to run. mvn passes MAVEN_OPTS and .mvn/jvm.config to java unquoted (issue 37 item 5).
  (_text, _goal, _facts, output) => {
    const m = /^Error: Could not find or load main class (\S+)/m.exec(output);
    if (m === null || m[1]!.startsWith('org.codehaus.plexus.classworlds.')) return undefined;
    return {
      code: 'jvm-options',
      message: `The JVM Maven runs in did not start: it took ${m[1]} for the class to run, the tail of an option in MAVEN_OPTS or .mvn/jvm.config split off at whitespace (mvn hands them to java unquoted, so quotes do not help).`,
      fix: 'Remove the whitespace from that option in MAVEN_OPTS or .mvn/jvm.config (move what it names to a path without spaces).',
    };
  },
  (text, goal, facts) =>
    /javax[/.]xml[/.]bind[/.]/.test(text)
      ? needsJdk(8, `${pluginOf(goal)} needs JAXB (javax.xml.bind), which JDK 11 removed from the JDK.`, facts)
      : undefined,
  (text, goal, facts) =>
    /tools\.jar|com\.sun:tools:jar/.test(text) ? needsJdk(8, `${pluginOf(goal)} needs the JDK 8 tools.jar, which JDK 9 removed.`, facts) : undefined,
  (text, _goal, facts) => {
    const m = /(Source|Target) option (\d+(?:\.\d+)?) is no longer supported/.exec(text);
    if (m === null) return undefined;
    const n = Number(m[2]!.replace(/^1\./, ''));
    // The last JDK whose javac still accepts it: 5 went in JDK 9, 6 in JDK 12, 7 in JDK 20.
    const last = n <= 5 ? 8 : n === 6 ? 11 : 17;
    return needsJdk(last, `The compiler is asked for ${m[1]!.toLowerCase()} ${m[2]}, which this JDK no longer compiles.`, facts);
  },
  (text, goal, facts) => {
    const m = /Unsupported class file major version (\d+)/.exec(text);
    if (m === null) return undefined;
    return needsJdk(Number(m[1]) - 44 - 1, `${pluginOf(goal)} cannot read class files of JDK ${Number(m[1]) - 44} (class file major version ${m[1]}).`, facts);
  },
  (text) => {
    const m = /class file version (\d+)\.0\), this version of the Java Runtime only recognizes class file versions up to (\d+)/.exec(text) ?? /class file has wrong version (\d+)\.0, should be (\d+)/.exec(text);
    if (m === null) return undefined;
    const required = Number(m[1]) - 44;
    return {
      code: 'jdk-too-old',
      message: `Code compiled for JDK ${required} runs on JDK ${Number(m[2]) - 44}.`,
      fix: `Run the build on JDK ${required} or newer: set JAVA_HOME to it.`,
    };
  },
  (text, goal) =>
    /Unable to find javadoc command|JAVA_HOME is not correctly set/.test(text)
      ? {
          code: 'java-home',
          message: `${pluginOf(goal)} looks for the javadoc tool through JAVA_HOME, which is not set.`,
          fix: 'Set JAVA_HOME to the JDK the build runs on (relctl sets it from `java` on PATH when it is unset).',
        }
      : undefined,
  (text, goal) =>
    /Cannot obtain passphrase in batch mode/.test(text)
      ? {
          code: 'gpg-batch',
          message: `${pluginOf(goal)} asks for the key's passphrase itself, which batch mode (-B) forbids.`,
          fix: 'Pass -Dgpg.useagent=true (relctl does, for a key in gpg-agent), or give the passphrase to the agent first (relctl warms it up), or upgrade maven-gpg-plugin to 3.x.',
        }
      : undefined,
  (text, goal) => {
    const m = /A required class was missing while executing ([\w.-]+:[\w.-]+:[\w.-]+):[\w-]+: (\S+)/.exec(text);
    if (m === null) return undefined;
    return {
      code: 'plugin-classpath',
      message: `${pluginOf(`${m[1]}:x`)} cannot load ${m[2]}: its classpath is incomplete, usually a plugin <dependency> in the POM (an SCM provider, for the release plugin) that needs a newer plugin version.`,
      fix: `Align the plugin's <dependencies> with its version (or upgrade ${m[1]!.split(':')[1]}); a real release stops here the same way.`,
    };
  },
  ...deployDecoders,
  (text) =>
    !deploying.test(text) && /could not be resolved|Could not resolve dependencies|Could not transfer artifact|Cannot access \S+ in offline mode|is offline|Could not find artifact/.test(text)
      ? {
          code: 'offline',
          message: 'Maven could not download a plugin or dependency.',
          fix: 'Let Maven reach its repository, or point it at a reachable mirror: relctl rehearse --maven-mirror <url> (a file:// folder works), or fill the local repository first (--local-repo).',
        }
      : undefined,
  (text, _goal, facts, output) =>
    /There are test failures|Tests run: \d+, Failures: \d+, Errors: \d+, Skipped: \d+.*FAIL|maven-surefire-plugin:[\w.-]+:test/.test(text)
      ? {
          code: 'tests',
          message: `Tests failed${/InaccessibleObjectException|module java\.base does not "opens/.test(output) ? ' (InaccessibleObjectException: the test libraries predate JDK 16, which closed the JDK internals they reach into)' : ''}; a real release runs them too and stops here.`,
          fix: facts.rehearsal
            ? 'Fix the tests (or run the release on the JDK they were written for); to see the rest of the rehearsal meanwhile: relctl rehearse --skip-tests (rehearsal only: never skip them in the release).'
            : 'Fix the tests, then run the release again.',
        }
      : undefined,
];

export function decodeMavenFailure(output: string, facts: FailureFacts): MavenFailure {
  const errors = errorLines(output);
  const goal = failingGoal(errors);
  const text = errors.join('\n');
  const failure: MavenFailure = { errors: errors.slice(0, 8) };
  const forked = forkedBuild(output);
  if (forked !== undefined) failure.forked = forked;
  if (goal !== undefined) failure.goal = goal;
  for (const decode of decoders) {
    const cause = decode(text, goal, facts, output);
    if (cause !== undefined) {
      failure.cause = cause;
      break;
    }
  }
  return failure;
}
