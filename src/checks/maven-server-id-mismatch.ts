import type { Finding } from '../core/findings.js';
import type { Check } from './types.js';
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
    for (const module of mavenModules(facts)) {
      const id = module.effective.repository?.id;
      if (id === undefined) continue;
      const servers = maven.settings.servers.filter((s) => s.id === id.value);
      if (servers.some((s) => s.username !== undefined && s.password !== undefined)) continue;
      let why: string;
      if (!maven.settings.found) why = `there is no settings file at ${maven.settings.file}`;
      else if (servers.length === 0) {
        const known = maven.settings.servers.map((s) => `"${s.id}"`).join(', ');
        why = `${maven.settings.file} has no <server> with that id${known === '' ? '' : ` (it has ${known})`}`;
      } else {
        const unset = [...new Set(servers.flatMap((s) => s.unsetEnv))];
        why =
          unset.length > 0
            ? `its <server> in ${maven.settings.file} takes credentials from ${unset.map((n) => `\${env.${n}}`).join(', ')}, and ${unset.join(', ')} ${unset.length === 1 ? 'is' : 'are'} not set`
            : `its <server> in ${maven.settings.file} lacks a username or password`;
      }
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
