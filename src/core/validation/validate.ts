import { createLimiter } from './limiter.js';
import { basename, groupComponents, isArtifact, isIgnored, isValidComponentDir, normalizePath, parseArtifactName } from './layout.js';
import type { ComponentLayout } from './layout.js';
import { summarizePom } from './pom-summary.js';
import type { PomSummary } from './pom-summary.js';
import { asDeploymentFile, readArtifactOnce } from './single-read.js';
import { ruleText } from './texts.js';
import type { ComponentVerdict, DeploymentFile, DeploymentFiles, RuleViolation, ValidationEnvironment } from './types.js';

type Files = ReadonlyMap<string, DeploymentFile>;
type Limit = <T>(task: () => Promise<T>) => Promise<T>;

/** Calls into the environment (possibly remote servers) run this many at a time. */
const concurrency = 8;
/**
 * Artifacts read at once: enough to keep the disk and the hashing busy on many small files,
 * few enough that memory is a handful of read buffers whatever the release's size.
 */
const filesInFlight = 4;

/**
 * Main artifact extension per packaging; any other packaging ships `.<packaging>`. The packagings
 * whose lifecycle ends in a jar (Maven's own, Felix's bundle, Tycho's eclipse-plugin, HK2's hk2-jar)
 * ship `.jar`, as JReleaser's Central rules (Deployable.requiresJar) and the portal accept.
 */
const jarPackagings = ['jar', 'bundle', 'maven-plugin', 'maven-archetype', 'eclipse-plugin', 'hk2-jar', 'ejb'];
const extensionOfPackaging: Record<string, string> = { ...Object.fromEntries(jarPackagings.map((p) => [p, 'jar'])), war: 'war' };

export function mainExtension(packaging: string): string | undefined {
  if (packaging === 'pom') return undefined;
  return Object.hasOwn(extensionOfPackaging, packaging) ? extensionOfPackaging[packaging] : packaging;
}

/**
 * Packagings without classes to document or show (the Central requirements exempt `pom`; Android's
 * `aar` and NetBeans' `nbm` carry none in the portal's reading, and an archetype has no javadoc),
 * as the peers apply the rule (JReleaser's Deployable source and javadoc exclusions).
 */
const noSources = new Set(['pom', 'aar', 'nbm']);
const noJavadoc = new Set(['pom', 'aar', 'nbm', 'maven-archetype']);

export function requiresSources(packaging: string): boolean {
  return !noSources.has(packaging);
}

export function requiresJavadoc(packaging: string): boolean {
  return !noJavadoc.has(packaging);
}

export function purlOf(groupId: string, artifactId: string, version: string): string {
  return `pkg:maven/${groupId}/${artifactId}@${version}`;
}

const decoder = new TextDecoder();

/**
 * Applies the portal's rules to every component of a deployment. `files` maps maven paths to
 * files (or bytes); `maven-metadata.xml*` is ignored. Each artifact is read once, as a stream, at
 * most `filesInFlight` at a time; POMs, sidecars and signatures are read whole (they are small).
 * Components come back sorted by coordinates, their violations in a fixed rule order (layout,
 * POM, version, packaging, content, checksums, signatures), files sorted within each rule, so two
 * runs over the same input print the same text.
 */
export async function validateDeployment(files: DeploymentFiles, env: ValidationEnvironment): Promise<ComponentVerdict[]> {
  const normalized = new Map<string, DeploymentFile>();
  for (const [path, data] of files) {
    const p = normalizePath(path);
    if (p !== '' && !isIgnored(p)) normalized.set(p, asDeploymentFile(data));
  }
  const limit = createLimiter(concurrency);
  const reads = createLimiter(filesInFlight);
  const pomCache = new Map<string, Promise<string | undefined>>();
  const loadPom = (g: string, a: string, v: string): Promise<string | undefined> => {
    const path = `${g.replace(/\./g, '/')}/${a}/${v}/${a}-${v}.pom`;
    const local = normalized.get(path);
    if (local !== undefined) return local.bytes().then((bytes) => decoder.decode(bytes));
    let pending = pomCache.get(path);
    if (pending === undefined) {
      pending = limit(() => env.fetchPom(g, a, v));
      pomCache.set(path, pending);
    }
    return pending;
  };
  const components = groupComponents(normalized.keys());
  return Promise.all(components.map((c) => validateComponent(c, normalized, env, { limit, reads }, loadPom)));
}

async function validateComponent(
  layout: ComponentLayout,
  files: Files,
  env: ValidationEnvironment,
  { limit, reads }: { limit: Limit; reads: Limit },
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
  const pomBytes = await files.get(pomPath)?.bytes();
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
      if (effective.dependencyVersions.known) {
        for (const dependency of effective.dependencyVersions.missing) missing('dependency-version-missing', ruleText.missingDependencyVersion(dependency));
      }
    }
  }

  // Version: no SNAPSHOT, and not already in the public repository.
  if (/-SNAPSHOT$/i.test(version)) violations.push({ code: 'snapshot-version', message: ruleText.snapshot() });
  if (validDir && (await limit(() => env.isPublished(groupId, artifactId, version)))) {
    violations.push({ code: 'already-published', message: ruleText.alreadyPublished(purl) });
  }

  // Packaging vs the main artifact, then sources and javadoc where the packaging has classes.
  const prefix = dir === '' ? '' : `${dir}/`;
  const has = (name: string): boolean => files.has(`${prefix}${name}`);
  const extension = mainExtension(packaging);
  if (validDir && packagingKnown && extension !== undefined && !has(`${artifactId}-${version}.${extension}`)) {
    violations.push({ code: 'packaging-mismatch', message: ruleText.packagingMismatch(packaging, `${artifactId}-${version}.${extension}`), file: pomPath });
  }
  if (validDir && requiresSources(packaging) && !has(`${artifactId}-${version}-sources.jar`)) {
    violations.push({ code: 'missing-sources', message: ruleText.missingSources() });
  }
  if (validDir && requiresJavadoc(packaging) && !has(`${artifactId}-${version}-javadoc.jar`)) {
    violations.push({ code: 'missing-javadoc', message: ruleText.missingJavadoc() });
  }

  const artifacts = layout.files.filter(isArtifact);
  const checked = await Promise.all(artifacts.map((file) => reads(() => checkArtifact(file, files, env, limit))));
  for (const { checksums } of checked) violations.push(...checksums);
  for (const { signature } of checked) if (signature !== undefined) violations.push(signature);

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

/** Checksums and signature of one artifact, from one read of it. */
async function checkArtifact(
  file: string,
  files: Files,
  env: ValidationEnvironment,
  limit: Limit,
): Promise<{ checksums: RuleViolation[]; signature?: RuleViolation }> {
  const name = basename(file);
  const checksums: RuleViolation[] = [];
  const sidecars = new Map<string, Uint8Array>();
  for (const algorithm of [...requiredChecksums, ...optionalChecksums]) {
    const sidecar = files.get(`${file}.${algorithm}`);
    if (sidecar === undefined) {
      if ((requiredChecksums as readonly string[]).includes(algorithm)) {
        checksums.push({ code: 'missing-checksum', message: ruleText.missingChecksum(algorithm, name), file: `${file}.${algorithm}` });
      }
    } else if (sidecar.derived !== true) sidecars.set(algorithm, await sidecar.bytes());
  }
  const signature = await files.get(`${file}.asc`)?.bytes();
  const verify = signature === undefined ? undefined : (data: AsyncIterable<Uint8Array>) => limit(() => env.verifySignature(file, data, signature));
  const reading = await readArtifactOnce(files.get(file)!, [...sidecars.keys()], verify);
  for (const [algorithm, content] of sidecars) {
    if (!checksumMatches(content, reading.digests.get(algorithm)!)) {
      checksums.push({ code: 'bad-checksum', message: ruleText.badChecksum(algorithm, name), file: `${file}.${algorithm}` });
    }
  }
  if (signature === undefined) return { checksums, signature: { code: 'missing-signature', message: ruleText.missingSignature(name), file } };
  const verdict = reading.verdict!;
  if (verdict.status === 'valid') return { checksums };
  if (verdict.status === 'no-public-key') return { checksums, signature: { code: 'key-not-on-primary', message: ruleText.keyNotFound(name), file: `${file}.asc` } };
  return { checksums, signature: { code: 'invalid-signature', message: ruleText.invalidSignature(name), file: `${file}.asc` } };
}
