import { createHash } from 'node:crypto';
import { createLimiter } from './limiter.js';
import { basename, groupComponents, isArtifact, isIgnored, isValidComponentDir, normalizePath, parseArtifactName } from './layout.js';
import type { ComponentLayout } from './layout.js';
import { summarizePom } from './pom-summary.js';
import type { PomSummary } from './pom-summary.js';
import { ruleText } from './texts.js';
import type { ComponentVerdict, RuleViolation, ValidationEnvironment } from './types.js';

type Files = ReadonlyMap<string, Uint8Array>;
type Limit = <T>(task: () => Promise<T>) => Promise<T>;

/** Calls into the environment (possibly remote servers) run this many at a time. */
const concurrency = 8;

/** Main artifact extension per packaging; any other packaging ships `.<packaging>`. */
const extensionOfPackaging: Record<string, string> = { jar: 'jar', bundle: 'jar', 'maven-plugin': 'jar', ejb: 'jar', war: 'war' };

export function mainExtension(packaging: string): string | undefined {
  if (packaging === 'pom') return undefined;
  return extensionOfPackaging[packaging] ?? packaging;
}

export function purlOf(groupId: string, artifactId: string, version: string): string {
  return `pkg:maven/${groupId}/${artifactId}@${version}`;
}

const decoder = new TextDecoder();

/**
 * Applies the portal's rules to every component of a deployment. `files` maps maven paths to
 * bytes; `maven-metadata.xml*` is ignored. Components come back sorted by coordinates, their
 * violations in a fixed rule order (layout, POM, version, packaging, content, checksums,
 * signatures), files sorted within each rule, so two runs over the same input print the same text.
 */
export async function validateDeployment(files: Files, env: ValidationEnvironment): Promise<ComponentVerdict[]> {
  const normalized = new Map<string, Uint8Array>();
  for (const [path, data] of files) {
    const p = normalizePath(path);
    if (p !== '' && !isIgnored(p)) normalized.set(p, data);
  }
  const limit = createLimiter(concurrency);
  const pomCache = new Map<string, Promise<string | undefined>>();
  const loadPom = (g: string, a: string, v: string): Promise<string | undefined> => {
    const path = `${g.replace(/\./g, '/')}/${a}/${v}/${a}-${v}.pom`;
    const local = normalized.get(path);
    if (local !== undefined) return Promise.resolve(decoder.decode(local));
    let pending = pomCache.get(path);
    if (pending === undefined) {
      pending = limit(() => env.fetchPom(g, a, v));
      pomCache.set(path, pending);
    }
    return pending;
  };
  const components = groupComponents(normalized.keys());
  return Promise.all(components.map((c) => validateComponent(c, normalized, env, limit, loadPom)));
}

async function validateComponent(
  layout: ComponentLayout,
  files: Files,
  env: ValidationEnvironment,
  limit: Limit,
  loadPom: (g: string, a: string, v: string) => Promise<string | undefined>,
): Promise<ComponentVerdict> {
  const { dir, groupId, artifactId, version } = layout;
  const purl = purlOf(groupId, artifactId, version);
  const violations: RuleViolation[] = [];
  const validDir = isValidComponentDir(layout);

  // Layout: every file must be named after the folder's artifactId and version.
  for (const file of layout.files) {
    if (!validDir || parseArtifactName(basename(file), artifactId, version) === undefined) {
      violations.push({ code: 'packaging-mismatch', message: ruleText.invalidPath(dir, basename(file)), file });
    }
  }

  // POM: present, readable, coordinates matching the folder, required metadata after inheritance.
  const pomName = `${artifactId}-${version}.pom`;
  const pomPath = dir === '' ? pomName : `${dir}/${pomName}`;
  const pomBytes = files.get(pomPath);
  let packaging = 'jar';
  let packagingKnown = false;
  if (validDir && pomBytes === undefined) {
    violations.push({ code: 'missing-pom-metadata', message: ruleText.missingPom(pomName), file: pomPath });
  } else if (pomBytes !== undefined) {
    const read = await summarizePom(decoder.decode(pomBytes), loadPom);
    if (!read.ok) {
      violations.push({ code: 'missing-pom-metadata', message: ruleText.unreadablePom(pomName, read.reason), file: pomPath });
    } else {
      if (!coordinatesMatch(read.summary, layout)) {
        violations.push({ code: 'packaging-mismatch', message: ruleText.invalidPath(dir, pomName), file: pomPath });
      }
      const effective = read.summary;
      packaging = effective.packaging;
      packagingKnown = true;
      const missing = (code: RuleViolation['code'], message: string): void => {
        violations.push({ code, message, file: pomPath });
      };
      if (effective.name === undefined) missing('missing-pom-metadata', ruleText.missingName());
      if (effective.description === undefined) missing('missing-pom-metadata', ruleText.missingDescription());
      if (effective.url === undefined) missing('missing-pom-metadata', ruleText.missingUrl());
      if (!effective.hasLicenses) missing('missing-pom-metadata', ruleText.missingLicense());
      if (!effective.hasDevelopers) missing('missing-developers', ruleText.missingDevelopers());
      if (effective.scmUrl === undefined) missing('missing-pom-metadata', ruleText.missingScmUrl());
    }
  }

  // Version: no SNAPSHOT, and not already in the public repository.
  if (/-SNAPSHOT$/i.test(version)) violations.push({ code: 'snapshot-version', message: ruleText.snapshot() });
  if (validDir && (await limit(() => env.isPublished(groupId, artifactId, version)))) {
    violations.push({ code: 'already-published', message: ruleText.alreadyPublished(purl) });
  }

  // Packaging vs the main artifact, then sources and javadoc unless packaging is pom.
  const prefix = dir === '' ? '' : `${dir}/`;
  const has = (name: string): boolean => files.has(`${prefix}${name}`);
  const extension = mainExtension(packaging);
  if (validDir && packagingKnown && extension !== undefined && !has(`${artifactId}-${version}.${extension}`)) {
    violations.push({ code: 'packaging-mismatch', message: ruleText.packagingMismatch(packaging, `${artifactId}-${version}.${extension}`), file: pomPath });
  }
  if (validDir && packaging !== 'pom') {
    if (!has(`${artifactId}-${version}-sources.jar`)) violations.push({ code: 'missing-sources', message: ruleText.missingSources() });
    if (!has(`${artifactId}-${version}-javadoc.jar`)) violations.push({ code: 'missing-javadoc', message: ruleText.missingJavadoc() });
  }

  const artifacts = layout.files.filter(isArtifact);
  for (const file of artifacts) violations.push(...checkChecksums(file, files));
  const signatures = await Promise.all(artifacts.map((file) => checkSignature(file, files, env, limit)));
  for (const violation of signatures) if (violation !== undefined) violations.push(violation);

  return { groupId, artifactId, version, packaging, purl, files: [...layout.files], violations };
}

/** Coordinates must name the folder; values with unresolved `${…}` expressions are not compared. */
function coordinatesMatch(pom: PomSummary, layout: ComponentLayout): boolean {
  if (pom.artifactId !== undefined && pom.artifactId !== layout.artifactId) return false;
  if (pom.groupId !== undefined && pom.groupId !== layout.groupId) return false;
  if (pom.version !== undefined && pom.version !== layout.version) return false;
  return true;
}

const requiredChecksums = ['md5', 'sha1'] as const;
const optionalChecksums = ['sha256', 'sha512'] as const;

/** Checksum files hold hex (either case), optionally followed by whitespace and a file name. */
function checksumMatches(content: Uint8Array, actual: string): boolean {
  const token = decoder.decode(content).trim().split(/\s+/)[0] ?? '';
  return token.toLowerCase() === actual;
}

function checkChecksums(file: string, files: Files): RuleViolation[] {
  const data = files.get(file)!;
  const name = basename(file);
  const out: RuleViolation[] = [];
  for (const algorithm of [...requiredChecksums, ...optionalChecksums]) {
    const sidecar = files.get(`${file}.${algorithm}`);
    if (sidecar === undefined) {
      if ((requiredChecksums as readonly string[]).includes(algorithm)) {
        out.push({ code: 'missing-checksum', message: ruleText.missingChecksum(algorithm, name), file: `${file}.${algorithm}` });
      }
      continue;
    }
    const actual = createHash(algorithm).update(data).digest('hex');
    if (!checksumMatches(sidecar, actual)) {
      out.push({ code: 'bad-checksum', message: ruleText.badChecksum(algorithm, name), file: `${file}.${algorithm}` });
    }
  }
  return out;
}

async function checkSignature(file: string, files: Files, env: ValidationEnvironment, limit: Limit): Promise<RuleViolation | undefined> {
  const name = basename(file);
  const signature = files.get(`${file}.asc`);
  if (signature === undefined) return { code: 'missing-signature', message: ruleText.missingSignature(name), file };
  const verdict = await limit(() => env.verifySignature(file, files.get(file)!, signature));
  if (verdict.status === 'valid') return undefined;
  if (verdict.status === 'no-public-key') return { code: 'key-not-on-primary', message: ruleText.keyNotFound(name), file: `${file}.asc` };
  return { code: 'invalid-signature', message: ruleText.invalidSignature(name), file: `${file}.asc` };
}
