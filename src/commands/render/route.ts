import type { Style } from '../../ui/style.js';
import type { PublishingRoute } from '../../checks/route-types.js';
import { escapeData, escapeProperty } from '../../ui/render/findings.js';
import { nexusStagingDefaults } from '../../checks/route-nexus.js';
import { oneLine } from '../../core/plain-text.js';

const describe: Record<PublishingRoute['kind'], string> = {
  'staging-api': 'the OSSRH Staging API service (deploy, then the manual upload call)',
  'legacy-ossrh': 'a retired OSSRH host (uploads are refused)',
  'portal-plugin': 'a Central Portal publishing plugin',
  'nexus-staging': 'a Nexus 2 staging client (the plugin stages, closes and may release through the staging API)',
  other: 'a repository other than Maven Central (Central-only rules not applied)',
  unknown: 'not recognised (the staging API rules apply to what is known)',
};

/** The first line of preflight's text output: the route and its first piece of evidence. */
export function routeLine(route: PublishingRoute, c: Style): string {
  const first = route.evidence[0];
  const where = first === undefined ? '' : c.dim(` (${oneLine(`${first.file}:${first.line}: ${first.why}`)})`);
  return `${c.bold('route:')} ${route.kind}, ${describe[route.kind]}${where}`;
}

/** The `route` member of preflight's --json document (DESIGN §4). */
export function routeJson(route: PublishingRoute): Record<string, unknown> {
  const doc: Record<string, unknown> = { kind: route.kind, evidence: route.evidence.map((e) => ({ file: e.file, line: e.line, why: e.why })) };
  // nexus-staging: what the client is told, as values (the evidence says it in words too).
  if (route.nexusClients !== undefined && route.nexusClients.length > 0) {
    doc.nexusStaging = route.nexusClients.map((c) => ({
      tool: c.tool,
      file: c.file,
      line: c.line,
      ...(c.nexusUrl === undefined ? {} : { nexusUrl: c.nexusUrl }),
      ...(c.serverId === undefined ? {} : { serverId: c.serverId }),
      ...(c.tool === 'nexus-staging-maven-plugin' ? { autoReleaseAfterClose: c.autoReleaseAfterClose ?? nexusStagingDefaults.autoReleaseAfterClose, stagingProgressTimeoutMinutes: c.stagingProgressTimeoutMinutes ?? nexusStagingDefaults.stagingProgressTimeoutMinutes } : {}),
    }));
  }
  return doc;
}

/** `--format github`: the route as a notice annotation, before the findings. */
export function routeGithub(route: PublishingRoute, fileOf: (file: string) => string = (f) => f): string {
  const first = route.evidence[0];
  const props = first === undefined ? '' : ` file=${escapeProperty(fileOf(first.file))},line=${first.line}`;
  return `::notice${props}::${escapeData(`route: ${route.kind}, ${describe[route.kind]}${first === undefined ? '' : ` (${first.why})`}`)}`;
}
