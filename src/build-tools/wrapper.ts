import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import path from 'node:path';

/**
 * Which executable starts the build, as a maintainer would pick it (issue 19 item 3): the
 * project's wrapper (`./mvnw`, `./gradlew`) only when it can run (the file is executable and its
 * wrapper configuration exists), otherwise the build tool on PATH. The one rule for `release`,
 * `rehearse`, `smoke --snapshot` and every other place relctl starts Maven or Gradle.
 */
export interface BuildToolCommand {
  executable: string;
  /** Set when a wrapper is present but not used: the one line saying why (print it). */
  why?: string;
}

interface WrapperSpec {
  script: string;
  /** The wrapper's configuration, relative to the project root. */
  config: string;
  fallback: string;
}

const wrappers: Record<'maven' | 'gradle', WrapperSpec> = {
  maven: { script: 'mvnw', config: path.join('.mvn', 'wrapper', 'maven-wrapper.properties'), fallback: 'mvn' },
  gradle: { script: 'gradlew', config: path.join('gradle', 'wrapper', 'gradle-wrapper.properties'), fallback: 'gradle' },
};

async function isFile(file: string): Promise<boolean> {
  return (await stat(file).catch(() => undefined))?.isFile() === true;
}

export async function buildToolCommand(root: string, tool: 'maven' | 'gradle'): Promise<BuildToolCommand> {
  const w = wrappers[tool];
  const script = path.join(root, w.script);
  if (!(await isFile(script))) return { executable: w.fallback };
  const executable = await access(script, constants.X_OK).then(
    () => true,
    () => false,
  );
  const configured = await isFile(path.join(root, w.config));
  if (executable && configured) return { executable: `./${w.script}` };
  const reason = !executable ? `./${w.script} is not executable` : `${w.config.split(path.sep).join('/')} does not exist`;
  return { executable: w.fallback, why: `${reason}: running ${w.fallback} from PATH instead, as a maintainer would` };
}
