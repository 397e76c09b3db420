/** Where Gradle looks for a project's build script, as the settings say (pure). */
import type { GradleSettings } from '../../core/gradle/settings.js';

const defaultBuildFiles = ['build.gradle.kts', 'build.gradle'];

/**
 * The script names Gradle would look for: the one settings name for this project, else the one
 * its children loop names (then the defaults: such loops are often conditional), else the defaults.
 */
export function buildFileCandidates(inc: { path: string; buildFileName?: string }, name: string, settings: GradleSettings): string[] {
  if (inc.buildFileName !== undefined) return [inc.buildFileName];
  const child = inc.path !== ':' && !inc.path.slice(1).includes(':');
  if (child && settings.childBuildFileTemplate !== undefined) return [settings.childBuildFileTemplate.replaceAll('{name}', name), ...defaultBuildFiles];
  return defaultBuildFiles;
}

/**
 * Why a project without a build script is worth saying so (undefined when it is not): its folder
 * is missing, the settings name a script that is not there, or they set names relctl cannot read.
 * A project with no script by the default names is ordinary (configured from the root).
 */
export function missingBuildFile(
  inc: { path: string; dir: string; buildFileName?: string },
  candidates: readonly string[],
  settings: GradleSettings,
  settingsFile: string | undefined,
  dirExists: boolean,
): string | undefined {
  if (!dirExists) return `its folder ${inc.dir} does not exist`;
  if (candidates[0] !== defaultBuildFiles[0]) return `${settingsFile ?? 'the settings'} names its build file ${candidates[0]}, which does not exist`;
  if (settings.buildFileNameUnread !== undefined && inc.path !== ':') return `${settingsFile ?? 'the settings'}:${settings.buildFileNameUnread} sets buildFileName in a way relctl cannot read, and no ${defaultBuildFiles.join(' or ')} is there`;
  return undefined;
}
