import type { Finding } from '../core/findings.js';
import type { Check } from './types.js';
import { stagingPluginDeployer } from '../core/pom/index.js';
import type { MavenFacts, MavenModuleFacts, MavenSettingsFacts } from '../build-tools/maven/facts.js';
import type { ProjectFacts } from './facts.js';
import { isEncrypted } from '../core/maven-settings.js';
import { routeKind } from './route.js';
import { at, dedupe, fromWhere, isMaven, isPortalSnapshotsUrl, publishedModules, originAt } from './maven-support.js';

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
    // relctl's release writes RELCTL_TOKEN_* into a private settings file: the release needs no
    // <server> then, but a snapshot deploy (CI's plain mvn deploy) still does.
    const releaseCovered = maven.tokenFromEnv;
    const findings: Finding[] = [];
    if (routeKind(facts) === 'portal-plugin') {
      if (releaseCovered) return [];
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
          fix: fixFor(maven, server.id, '.'),
          subject: server.id,
        });
      }
      return dedupe(findings);
    }
    for (const module of publishedModules(facts)) {
      // nexus-staging-maven-plugin, when it deploys, authenticates with its own <serverId>.
      const deployer = stagingPluginDeployer(module.effective);
      const snapshot = snapshotServerFinding(facts, maven, module, deployer === undefined && !releaseCovered);
      if (snapshot !== undefined) findings.push(snapshot);
      if (releaseCovered) continue;
      if (deployer !== undefined) {
        const sid = deployer.config.find((c) => c.path === 'serverId');
        const why = sid === undefined || sid.value.includes('${') ? undefined : lacking(maven, sid.value);
        if (sid === undefined || why === undefined) continue;
        const origin = sid.from ?? { pom: deployer.origin.pom, line: deployer.origin.pom.file === undefined ? deployer.origin.line : sid.line };
        findings.push({
          code: 'server-id-mismatch',
          severity: 'error',
          message: `No credentials for nexus-staging-maven-plugin's <serverId> "${sid.value}" (${fromWhere(origin, module)}), which it deploys with: ${why}.`,
          ...at(originAt(facts, module, origin)),
          fix: fixFor(maven, sid.value, releaseTail),
          subject: sid.value,
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
        fix: fixFor(maven, id.value, releaseTail),
        subject: id.value,
      });
    }
    return dedupe(findings);
  },
};

const releaseTail = ', or set RELCTL_TOKEN_USERNAME and RELCTL_TOKEN_PASSWORD for relctl release.';

/**
 * The snapshot repository's `<server>` where it is the portal's snapshot repository (issue 42
 * item 5): every snapshot deploy authenticates with it. Not reported twice when it is the release
 * repository's id and that one is judged already (`releaseJudged`).
 */
function snapshotServerFinding(facts: ProjectFacts, maven: MavenFacts, module: MavenModuleFacts, releaseJudged: boolean): Finding | undefined {
  const snapshot = module.effective.snapshotRepository;
  const id = snapshot?.id;
  if (id === undefined || snapshot?.url === undefined || id.value.includes('${') || !isPortalSnapshotsUrl(snapshot.url.value, facts.portalUrl)) return undefined;
  if (releaseJudged && module.effective.repository?.id?.value === id.value) return undefined;
  const why = lacking(maven, id.value);
  if (why === undefined) return undefined;
  return {
    code: 'server-id-mismatch',
    severity: 'error',
    message: `No credentials for the snapshot repository id "${id.value}" (${fromWhere(id.origin, module)}), which every snapshot deploy to the portal's snapshot repository authenticates with: ${why}.`,
    ...at(originAt(facts, module, id.origin)),
    fix: fixFor(maven, id.value, ' (the same portal user token as for releases).'),
    subject: id.value,
  };
}

/**
 * The fix for a missing credential. When the settings already have the <server> and only its
 * `${env.NAME}` variables are unset (the state `preflight --fix` leaves behind), adding a <server>
 * would be wrong advice: the variables are what is missing.
 */
function fixFor(maven: MavenFacts, id: string, tail: string): string {
  const unset = [...new Set(maven.settings.servers.filter((s) => s.id === id).flatMap((s) => s.unsetEnv))];
  if (unset.length > 0) {
    return `Set ${unset.join(' and ')} to the portal user token in the environment Maven runs in (in CI: from the secrets relctl init names)${tail}`;
  }
  return `Add <server><id>${id}</id><username>TOKEN_USER</username><password>TOKEN_PASSWORD</password></server> to ${maven.settings.file} with the portal user token (\${env.NAME} values work)${tail}`;
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
