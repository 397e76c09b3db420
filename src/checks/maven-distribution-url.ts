import type { Finding } from '../core/findings.js';
import { hasUnresolved, stagingPluginDeployer } from '../core/pom/index.js';
import type { Check } from './types.js';
import { at, dedupe, expectedDeployUrl, fromWhere, isMaven, legacyHostOf, publishedModules, originAt } from './maven-support.js';
import { ignoresDistribution } from './route.js';

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

export const mavenDistributionUrl: Check = {
  id: 'maven-distribution-url',
  codes: ['distribution-url'],
  title: 'the release repository URL points at the staging API service',
  appliesTo: isMaven,
  run(facts) {
    if (ignoresDistribution(facts)) return [];
    const findings: Finding[] = [];
    const staging = facts.maven!.stagingApiUrl;
    const expected = expectedDeployUrl(staging);
    for (const module of publishedModules(facts)) {
      const repo = module.effective.repository;
      if (repo === undefined) continue; // missing-distribution
      // nexus-staging-maven-plugin deploys releases itself: the release repository is not used.
      if (stagingPluginDeployer(module.effective) !== undefined) continue;
      const url = repo.url;
      if (url === undefined) {
        const id = repo.id!;
        findings.push({
          code: 'distribution-url',
          severity: 'error',
          message: `The release repository "${id.value}" (${fromWhere(id.origin, module)}) has no <url>.`,
          ...at(originAt(facts, module, id.origin)),
          fix: `Add <url>${expected}</url> to that <repository>.`,
        });
        continue;
      }
      // A retired host is reported by legacy-staging-host, with the same fix.
      if (legacyHostOf(url.value) !== undefined || pointsAtStagingService(url.value, staging)) continue;
      // A `${...}` left in the URL is unresolved-property's (or, past an unresolved parent, unknown).
      if (hasUnresolved(url.value)) continue;
      const why = `does not point at the staging API service ${staging}`;
      findings.push({
        code: 'distribution-url',
        severity: 'error',
        message: `The release repository URL ${url.value} (${fromWhere(url.origin, module)}) ${why}.`,
        ...at(originAt(facts, module, url.origin)),
        fix: `Set the release repository <url> to ${expected}.`,
      });
    }
    return dedupe(findings);
  },
};
