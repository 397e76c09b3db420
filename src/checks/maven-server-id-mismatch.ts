import type { Finding } from '../core/findings.js';
import type { Check } from './types.js';
import { stagingPluginDeployer } from '../core/pom/index.js';
import type { MavenFacts } from '../build-tools/maven/facts.js';
import { routeKind } from './route.js';
import { at, dedupe, fromWhere, isMaven, publishedModules, originAt } from './maven-support.js';

/**
 * Maven sends credentials only from the settings `<server>` whose id equals the distribution
 * repository id; without one every upload is refused with 401.
 */
export const mavenServerIdMismatch: Check = {
  id: 'maven-server-id-mismatch',
  codes: ['server-id-mismatch'],
  title: 'settings.xml has credentials for the distribution repository id',
  appliesTo: isMaven,
  run(facts) {
    const maven = facts.maven!;
    // A settings file that does not parse is already an xml-malformed finding.
    if (maven.settings.found && !maven.settings.parsed) return [];
    if (maven.tokenFromEnv) return [];
    const findings: Finding[] = [];
    if (routeKind(facts) === 'portal-plugin') {
      // central-publishing-maven-plugin authenticates with the <server> named by publishingServerId.
      for (const server of facts.route?.portalServers ?? []) {
        const why = lacking(maven, server.id);
        if (why === undefined) continue;
        findings.push({
          code: 'server-id-mismatch',
          severity: 'error',
          message: `No credentials for the Central Portal plugin's server id "${server.id}" (publishingServerId, default "central"): ${why}.`,
          file: server.file,
          line: server.line,
          module: server.module,
          fix: `Add <server><id>${server.id}</id><username>TOKEN_USER</username><password>TOKEN_PASSWORD</password></server> to ${maven.settings.file} with the portal user token (\${env.NAME} values work).`,
        });
      }
      return dedupe(findings);
    }
    for (const module of publishedModules(facts)) {
      // nexus-staging-maven-plugin, when it deploys, authenticates with its own <serverId>.
      const deployer = stagingPluginDeployer(module.effective);
      if (deployer !== undefined) {
        const sid = deployer.config.find((c) => c.path === 'serverId');
        const why = sid === undefined ? undefined : lacking(maven, sid.value);
        if (sid === undefined || why === undefined) continue;
        const origin = sid.from ?? { pom: deployer.origin.pom, line: deployer.origin.pom.file === undefined ? deployer.origin.line : sid.line };
        findings.push({
          code: 'server-id-mismatch',
          severity: 'error',
          message: `No credentials for nexus-staging-maven-plugin's <serverId> "${sid.value}" (${fromWhere(origin, module)}), which it deploys with: ${why}.`,
          ...at(originAt(facts, module, origin)),
          fix: `Add <server><id>${sid.value}</id><username>TOKEN_USER</username><password>TOKEN_PASSWORD</password></server> to ${maven.settings.file} with the portal user token (\${env.NAME} values work).`,
        });
        continue;
      }
      const id = module.effective.repository?.id;
      if (id === undefined) continue;
      const why = lacking(maven, id.value);
      if (why === undefined) continue;
      findings.push({
        code: 'server-id-mismatch',
        severity: 'error',
        message: `No credentials for the distribution repository id "${id.value}" (${fromWhere(id.origin, module)}): ${why}.`,
        ...at(originAt(facts, module, id.origin)),
        fix: `Add <server><id>${id.value}</id><username>TOKEN_USER</username><password>TOKEN_PASSWORD</password></server> to ${maven.settings.file} with the portal user token (\${env.NAME} values work), or set RELCTL_TOKEN_USERNAME and RELCTL_TOKEN_PASSWORD for relctl release.`,
      });
    }
    return dedupe(findings);
  },
};

/** Why the settings hold no usable credentials for `id`, or undefined when they do. */
function lacking(maven: MavenFacts, id: string): string | undefined {
  const servers = maven.settings.servers.filter((s) => s.id === id);
  if (servers.some((s) => s.username !== undefined && s.password !== undefined)) return undefined;
  if (!maven.settings.found) return `there is no settings file at ${maven.settings.file}`;
  if (servers.length === 0) {
    const known = maven.settings.servers.map((s) => `"${s.id}"`).join(', ');
    return `${maven.settings.file} has no <server> with that id${known === '' ? '' : ` (it has ${known})`}`;
  }
  const unset = [...new Set(servers.flatMap((s) => s.unsetEnv))];
  return unset.length > 0
    ? `its <server> in ${maven.settings.file} takes credentials from ${unset.map((n) => `\${env.${n}}`).join(', ')}, and ${unset.join(', ')} ${unset.length === 1 ? 'is' : 'are'} not set`
    : `its <server> in ${maven.settings.file} lacks a username or password`;
}
