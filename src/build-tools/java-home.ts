import { readFile, readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';

/**
 * The JDK a build runs on. Maven plugins that start JDK tools (javadoc-plugin 3.1.x: "Unable to
 * find javadoc command: The environment variable JAVA_HOME is not correctly set") need JAVA_HOME
 * on JDK 9+, where a maintainer's shell usually has it; where it is unset, the build gets the JDK
 * that `java` on PATH belongs to, and relctl says so.
 */
export interface JavaHome {
  path: string;
  /** The JDK's major version (17), from its `release` file. */
  major?: number;
  /** Set when relctl chose it (JAVA_HOME was unset): the line saying so. */
  why?: string;
}

/** `JAVA_VERSION="17.0.15"` (or `"1.8.0_402"`) in `<jdk>/release` → 17 (or 8). */
export async function jdkMajor(home: string): Promise<number | undefined> {
  const text = await readFile(path.join(home, 'release'), 'utf8').catch(() => undefined);
  const m = text === undefined ? null : /^JAVA_VERSION="(?:1\.)?(\d+)/m.exec(text);
  return m === null ? undefined : Number(m[1]);
}

async function isFile(file: string): Promise<boolean> {
  return (await stat(file).catch(() => undefined))?.isFile() === true;
}

/** JAVA_HOME as given, else the JDK of `java` on PATH (a JRE without javac does not count). */
export async function javaHomeFor(env: NodeJS.ProcessEnv): Promise<JavaHome | undefined> {
  if (env.JAVA_HOME !== undefined && env.JAVA_HOME !== '') {
    const major = await jdkMajor(env.JAVA_HOME);
    return { path: env.JAVA_HOME, ...(major === undefined ? {} : { major }) };
  }
  for (const dir of (env.PATH ?? '').split(path.delimiter).filter((d) => d !== '')) {
    const java = path.join(dir, 'java');
    if (!(await isFile(java))) continue;
    const real = await realpath(java).catch(() => undefined);
    if (real === undefined || path.basename(path.dirname(real)) !== 'bin') return undefined;
    const home = path.dirname(path.dirname(real));
    if (!(await isFile(path.join(home, 'bin', 'javac')))) return undefined;
    const major = await jdkMajor(home);
    return { path: home, ...(major === undefined ? {} : { major }), why: `JAVA_HOME is unset: the build runs with JAVA_HOME=${home} (the JDK of \`java\` on PATH), as javadoc tooling on JDK 9+ needs it` };
  }
  return undefined;
}

/** Major versions of the JDKs installed where Linux distributions put them (/usr/lib/jvm), sorted. */
export async function installedJdks(root = '/usr/lib/jvm'): Promise<number[]> {
  const majors = new Set<number>();
  for (const name of await readdir(root).catch(() => [] as string[])) {
    const major = await jdkMajor(path.join(root, name));
    if (major !== undefined) majors.add(major);
  }
  return [...majors].sort((a, b) => a - b);
}
