import { readdirSync } from 'node:fs';
import path from 'node:path';
import { mvnSettingsArguments } from '../../core/maven-settings.js';
import { mvnDeployCommands, type MvnDeployCommand } from '../../core/maven-deploy-command.js';
import { exportedVariables, makesRelease } from '../../core/ci-release-evidence.js';
import { descriptorText, readDescriptor } from '../../io/descriptor.js';

// Where projects keep the scripts that run their release build.
const scriptFiles = ['.gitlab-ci.yml', '.travis.yml', 'Jenkinsfile', 'azure-pipelines.yml', '.circleci/config.yml', 'release.sh', 'deploy.sh', 'Makefile'];
const scriptFolders = ['.github/workflows', '.github/scripts', '.ci', 'ci', 'cd', '.travis', 'scripts', 'bin', '.buildkite'];

/** A project settings file the CI scripts pass with `-s`, and what those scripts do with it. */
export interface CiSettingsFile {
  file: string;
  /** The first script that passes it. */
  via: string;
  /**
   * Every script that passes it runs `mvn … deploy` and nothing that makes a release (no release
   * plugin goal, version change, release profile, tag or release trigger: ci-release-evidence.ts).
   */
  deploysAsCheckedOut: boolean;
  /** The variables those scripts set for their steps (a new `<server>` there may reuse them). */
  exports: string[];
}

/**
 * Settings files kept in the project that its CI scripts pass to Maven with `-s` (a
 * `.github/settings.xml` used by `mvn -s .github/settings.xml deploy`): the CI's deploys use
 * those, not ~/.m2/settings.xml. Only files that exist inside the project are returned.
 */
export function ciSettingsFiles(root: string, scripts: readonly CiScript[]): CiSettingsFile[] {
  const out: CiSettingsFile[] = [];
  for (const { script, text } of scripts) {
    const asCheckedOut = mvnDeployCommands(text).length > 0 && !makesRelease(text);
    for (const arg of mvnSettingsArguments(text)) {
      const file = path.resolve(root, arg);
      if (!file.startsWith(root + path.sep)) continue;
      const known = out.find((o) => o.file === file);
      if (known !== undefined) {
        known.deploysAsCheckedOut &&= asCheckedOut;
        known.exports = [...new Set([...known.exports, ...exportedVariables(text)])];
      } else if (readDescriptor(file).ok) out.push({ file, via: script, deploysAsCheckedOut: asCheckedOut, exports: exportedVariables(text) });
    }
  }
  return out;
}

/** The `mvn … deploy` commands of the CI scripts, each with the script it is in ('unknown': a -f/-pl from a variable). */
export function ciDeployCommands(scripts: readonly CiScript[]): CiDeploy[] {
  const out: CiDeploy[] = [];
  for (const { script, text } of scripts) {
    for (const c of mvnDeployCommands(text)) out.push(c === 'unknown' ? { via: script, unknown: true } : { ...c, via: script });
  }
  return out;
}

/** A CI script of the project, by its path from the root, with its text. */
export interface CiScript {
  script: string;
  text: string;
}

/** An `mvn … deploy` command of a CI script ('unknown': a -f/-pl from a variable). */
export type CiDeploy = (MvnDeployCommand & { via: string }) | { via: string; unknown: true };

/** The project's CI scripts that exist, each read once (both readers above take them). */
export function ciScriptTexts(root: string): CiScript[] {
  return ciScripts(root).flatMap((script) => {
    const text = descriptorText(path.join(root, script));
    return text === undefined ? [] : [{ script, text }];
  });
}

function ciScripts(root: string): string[] {
  const scripts = [...scriptFiles];
  for (const folder of scriptFolders) {
    let names: string[];
    try {
      names = readdirSync(path.join(root, folder));
    } catch {
      continue;
    }
    for (const name of names.sort()) if (/\.(ya?ml|sh|bash)$/.test(name)) scripts.push(`${folder}/${name}`);
  }
  return scripts.slice(0, 64);
}
