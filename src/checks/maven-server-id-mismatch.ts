import type { Finding } from '../core/findings.js';
import type { Check } from './types.js';
import type { MavenFacts, MavenModuleFacts, MavenSettingsFacts } from '../build-tools/maven/facts.js';
import { isEncrypted } from '../core/maven-settings.js';
import type { Origin } from '../core/pom/index.js';
import { routeKind } from './route.js';
import { at, dedupe, fromWhere, isMaven, mavenModules, originAt } from './maven-support.js';

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
        // An id still holding `${...}` comes from a property set elsewhere (-D in CI): not judged.
        if (server.id.includes('${')) continue;
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
    for (const module of mavenModules(facts)) {
      // nexus-staging-maven-plugin deploys in place of maven-deploy-plugin and authenticates with its own <serverId>.
      const staging = stagingServerId(module);
      if (staging !== undefined) {
        const why = lacking(maven, staging.value);
        if (why === undefined) continue;
        findings.push({
          code: 'server-id-mismatch',
          severity: 'error',
          message: `No credentials for nexus-staging-maven-plugin's <serverId> "${staging.value}" (it deploys instead of maven-deploy-plugin and ignores the distribution repository id): ${why}.`,
          ...at(originAt(facts, module, staging.origin)),
          fix: `Add <server><id>${staging.value}</id><username>TOKEN_USER</username><password>TOKEN_PASSWORD</password></server> to ${maven.settings.file} with the portal user token (\${env.NAME} values work), or set RELCTL_TOKEN_USERNAME and RELCTL_TOKEN_PASSWORD for relctl release.`,
        });
        continue;
      }
      const id = module.effective.repository?.id;
      if (id === undefined || id.value.includes('${')) continue;
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

/**
 * nexus-staging-maven-plugin's `<serverId>` when the plugin is in force for the module (declared
 * in `<plugins>`, possibly configured in `<pluginManagement>`), with where it is written.
 */
function stagingServerId(module: MavenModuleFacts): { value: string; origin: Origin } | undefined {
  const entries = module.effective.plugins.filter((p) => p.artifactId === 'nexus-staging-maven-plugin');
  if (!entries.some((p) => !p.managed || p.extensions)) return undefined;
  for (const p of [...entries.filter((x) => !x.managed), ...entries.filter((x) => x.managed)]) {
    const id = p.config.find((c) => c.path === 'serverId' || c.path.endsWith('/serverId'));
    if (id !== undefined && id.value !== '' && !id.value.includes('${')) return { value: id.value, origin: { pom: p.origin.pom, line: id.line } };
  }
  return undefined;
}

/**
 * Why the settings hold no usable credentials for `id`, or undefined when they do: in the file
 * Maven uses, or in a project settings file the CI scripts pass with `-s`.
 */
function lacking(maven: MavenFacts, id: string): string | undefined {
  const why = lackingIn(maven.settings, id);
  if (why === undefined) return undefined;
  const others: string[] = [];
  for (const alt of maven.settings.alternatives ?? []) {
    if (alt.found && !alt.parsed) continue; // xml-malformed says why
    const altWhy = lackingIn(alt, id);
    if (altWhy === undefined) return undefined;
    others.push(`nor in ${alt.file}, which ${alt.via ?? 'a CI script'} passes to mvn with -s (${altWhy})`);
  }
  return [why, ...others].join('; ');
}

function lackingIn(settings: MavenSettingsFacts, id: string): string | undefined {
  const servers = settings.servers.filter((s) => s.id === id);
  const usable = servers.find((s) => s.username !== undefined && s.password !== undefined);
  const master = settings.masterPassword;
  if (usable !== undefined && isEncrypted(usable.password) && master !== undefined && !master.found) {
    return `its <server> in ${settings.file} has an encrypted password ({...}), but there is no ${master.file} with the master password to decrypt it, so Maven would send it as it is`;
  }
  if (usable !== undefined) return undefined;
  if (!settings.found) return `there is no settings file at ${settings.file}${settings.via === undefined ? '' : ` (named by -s in ${settings.via})`}`;
  if (servers.length === 0) {
    const known = settings.servers.map((s) => `"${s.id}"`).join(', ');
    return `${settings.file} has no <server> with that id${known === '' ? '' : ` (it has ${known})`}`;
  }
  const unset = [...new Set(servers.flatMap((s) => s.unsetEnv))];
  return unset.length > 0
    ? `its <server> in ${settings.file} takes credentials from ${unset.map((n) => `\${env.${n}}`).join(', ')}, and ${unset.join(', ')} ${unset.length === 1 ? 'is' : 'are'} not set (or empty)`
    : `its <server> in ${settings.file} lacks a username or password`;
}
