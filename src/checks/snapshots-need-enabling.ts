import type { Finding } from '../core/findings.js';
import type { Check } from './types.js';
import { gradleProjects } from './gradle-support.js';
import { at, dedupe, fromWhere, isPortalSnapshotsUrl, originAt, publishedModules } from './maven-support.js';

/** Where SNAPSHOTs are switched on (central.sonatype.org "Publishing -SNAPSHOT Releases"). */
export function namespacesPage(portalUrl: string | undefined): string {
  return `${(portalUrl ?? 'https://central.sonatype.com').replace(/\/+$/, '')}/publishing/namespaces`;
}

function finding(what: string, portalUrl: string | undefined): Pick<Finding, 'code' | 'severity' | 'message' | 'fix'> {
  return {
    code: 'snapshots-need-enabling',
    severity: 'warning',
    message: `${what} is the portal's snapshot repository, which takes -SNAPSHOT deploys only into a namespace whose SNAPSHOTs were enabled on the portal: until then every snapshot deploy (CI's on each push included) gets 403 Forbidden. relctl cannot see that switch.`,
    fix: `On ${namespacesPage(portalUrl)}, open the namespace's menu and choose "Enable SNAPSHOTs" (then Confirm; the namespace shows a SNAPSHOTs badge). Once it is on, turn this reminder off with "rules": { "snapshots-need-enabling": "off" } in relctl.config.json.`,
  };
}

/**
 * A reminder wherever a snapshot repository points at the portal's (issue 42 item 5): the switch
 * is per namespace and invisible to the API, so preflight says it rather than judging it.
 */
export const snapshotsNeedEnabling: Check = {
  id: 'snapshots-need-enabling',
  codes: ['snapshots-need-enabling'],
  title: "the portal's snapshot repository needs SNAPSHOTs enabled for the namespace",
  appliesTo: (facts) => facts.maven !== undefined || facts.gradle !== undefined,
  run(facts) {
    const findings: Finding[] = [];
    if (facts.maven !== undefined) {
      for (const module of publishedModules(facts)) {
        const url = module.effective.snapshotRepository?.url;
        if (url === undefined || !isPortalSnapshotsUrl(url.value, facts.portalUrl)) continue;
        findings.push({ ...finding(`The snapshot repository URL ${url.value} (${fromWhere(url.origin, module)})`, facts.portalUrl), ...at(originAt(facts, module, url.origin)) });
      }
    }
    if (facts.gradle !== undefined) {
      for (const project of gradleProjects(facts)) {
        for (const r of project.repositories) {
          if (r.kind !== 'snapshot' || !isPortalSnapshotsUrl(r.url, facts.portalUrl)) continue;
          findings.push({ ...finding(`The snapshot repository URL ${r.url}`, facts.portalUrl), file: r.file, line: r.line, module: project.path });
        }
      }
    }
    return dedupe(findings);
  },
};
