import { stat } from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from '../core/errors.js';
import { parseBuildScript } from '../core/gradle/build-script.js';
import { parsePom } from '../core/pom/index.js';
import { readDescriptorOrFail } from './descriptor.js';
import { detectBuildTool } from './build-tool.js';

export interface ProjectIdentity {
  buildTool: 'maven' | 'gradle';
  groupId: string;
  artifactId: string;
  /** As declared: X.Y.Z-SNAPSHOT before a release. */
  version: string;
  /** Maven: the effective distribution repository id (the <server> id Maven authenticates with). */
  repositoryId?: string;
  /** The build's own release tag format: maven-release-plugin `tagNameFormat`, Gradle release `tagTemplate`. */
  tagTemplate?: string;
}

/** A descriptor's text; undefined when it does not exist; a FIFO, device or huge file is a usage error. */
async function read(file: string): Promise<string | undefined> {
  return readDescriptorOrFail(file, file, `Replace ${path.basename(file)} with the regular file your build reads.`);
}

export async function exists(file: string): Promise<boolean> {
  return (await stat(file).catch(() => undefined)) !== undefined;
}

function unreadable(what: string, fix: string): UsageError {
  return new UsageError(what, { kind: 'no-release-version', fix });
}

/** Reads the root project's coordinates: the release chain needs them before anything else. */
export async function readIdentity(root: string): Promise<ProjectIdentity> {
  const buildTool = await detectBuildTool(root);
  if (buildTool === 'maven') {
    const text = (await read(path.join(root, 'pom.xml'))) ?? '';
    const parsed = parsePom(text);
    if (!parsed.ok) throw unreadable(`pom.xml cannot be parsed: ${parsed.message}.`, 'Fix pom.xml (relctl preflight shows where).');
    const pom = parsed.pom;
    const groupId = pom.groupId?.value ?? pom.parent?.groupId;
    const artifactId = pom.artifactId?.value;
    const version = pom.version?.value ?? pom.parent?.version;
    if (groupId === undefined || artifactId === undefined || version === undefined) {
      throw unreadable('pom.xml does not declare groupId, artifactId and version.', 'Declare them in the top-level pom.xml.');
    }
    const repositoryId = pom.distribution?.repository?.id?.value;
    const tagTemplate = pom.plugins.find((p) => p.artifactId === 'maven-release-plugin' && p.config.some((c) => c.path === 'tagNameFormat'))?.config.find((c) => c.path === 'tagNameFormat')?.value;
    return {
      buildTool,
      groupId,
      artifactId,
      version,
      ...(repositoryId === undefined ? {} : { repositoryId }),
      ...(tagTemplate === undefined || tagTemplate === '' ? {} : { tagTemplate }),
    };
  }
  // TODO(src/core/gradle): use the Gradle engineer's parsers once they land; this reads only the
  // common shapes: gradle.properties `version=`/`group=`, settings `rootProject.name`.
  const props = (await read(path.join(root, 'gradle.properties'))) ?? '';
  const build = ((await read(path.join(root, 'build.gradle'))) ?? '') + ((await read(path.join(root, 'build.gradle.kts'))) ?? '');
  const settings = ((await read(path.join(root, 'settings.gradle'))) ?? '') + ((await read(path.join(root, 'settings.gradle.kts'))) ?? '');
  const prop = (key: string): string | undefined => new RegExp(`^\\s*${key}\\s*[=:]\\s*(\\S+)\\s*$`, 'm').exec(props)?.[1];
  const assigned = (key: string): string | undefined => new RegExp(`^\\s*${key}\\s*=\\s*["']([^"']+)["']`, 'm').exec(build)?.[1];
  const version = prop('version') ?? assigned('version');
  const groupId = prop('group') ?? assigned('group');
  const artifactId = /rootProject\.name\s*=\s*["']([^"']+)["']/.exec(settings)?.[1] ?? path.basename(root);
  if (version === undefined || groupId === undefined) {
    throw unreadable('The Gradle build declares no version or group in gradle.properties.', 'Put version=X.Y.Z-SNAPSHOT and group=<groupId> in gradle.properties.');
  }
  const tagTemplate = parseBuildScript(build).tagTemplate;
  return { buildTool, groupId, artifactId, version, ...(tagTemplate === undefined ? {} : { tagTemplate }) };
}
