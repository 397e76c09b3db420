/** Where a publishing URL goes: the retired OSSRH hosts, the staging API service, or elsewhere. Pure. */
import { legacyHostOf } from './maven-support.js';

/** `scheme://host[:port]/path` lower-cased in scheme and host, no trailing slash, no query. */
// A reactor of 1000 modules inherits one URL 1000 times: parse each distinct string once.
const normalised = new Map<string, string | undefined>();

function normalise(url: string): string | undefined {
  if (normalised.has(url)) return normalised.get(url);
  let out: string | undefined;
  try {
    const u = new URL(url);
    out = `${u.protocol}//${u.host}${u.pathname}`.replace(/\/+$/, '');
  } catch {
    out = undefined;
  }
  normalised.set(url, out);
  return out;
}

/** True when `url` points into the staging API's deploy service (`{staging}/service/local/...`). */
export function pointsAtStagingService(url: string, stagingApiUrl: string): boolean {
  const actual = normalise(url);
  const base = normalise(stagingApiUrl);
  if (actual === undefined || base === undefined) return false;
  const service = `${base}/service/local`;
  return actual === service || actual.startsWith(`${service}/`);
}

export type UrlTarget = 'legacy' | 'staging' | 'other' | 'central-unknown' | 'local';

// Repository hosts that are not Maven Central: a foundation's or a company's own repository.
// A URL there is a deliberate choice, not a mistyped Central URL.
const otherHostSuffixes = [
  'apache.org', 'eclipse.org', 'jboss.org', 'spring.io', 'pkg.github.com', 'jfrog.io', 'jfrog.org', 'gitlab.com',
  'cloudsmith.io', 'jitpack.io', 'jenkins-ci.org', 'jenkins.io', 'clojars.org', 'amazonaws.com', 'pkg.dev', 'azure.com',
  'repsy.io', 'ow2.org', 'mulesoft.org', 'jetbrains.space', 'jetbrains.team', 'codeberg.org', 'gradle.org', 'google.com',
];

// Repository ids people give a Central upload; any other id on a non-Sonatype host is a repository of its own.
const centralIds = /central|ossrh|sonatype|oss-?release|maven-?release/i;

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

export function isKnownOtherHost(host: string): boolean {
  return otherHostSuffixes.some((s) => host === s || host.endsWith(`.${s}`));
}

/** Classifies a release (or plugin) URL; `id` is the Maven repository id when there is one. */
export function urlTarget(url: string, stagingApiUrl: string, id?: string): UrlTarget {
  if (/^file:/i.test(url)) return 'local';
  if (legacyHostOf(url) !== undefined) return 'legacy';
  if (pointsAtStagingService(url, stagingApiUrl)) return 'staging';
  // `s3://bucket/releases`, `scp://host/repo`, `gcs://...`, `artifactregistry://...`: a wagon or transport
  // to the project's own storage, never Maven Central (which is reached over https only).
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url) && !/^https?:/i.test(url)) return 'other';
  const host = hostOf(url);
  const stagingHost = hostOf(stagingApiUrl);
  if (host !== undefined && stagingHost !== undefined && host === stagingHost) return 'staging';
  if (host === undefined || host.includes('sonatype')) return 'central-unknown';
  if (isKnownOtherHost(host)) return 'other';
  if (id !== undefined && !centralIds.test(id)) return 'other';
  return 'central-unknown';
}
