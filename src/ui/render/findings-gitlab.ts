import type { CheckReport } from '../../core/findings.js';
import { displayedFile, findingFingerprints, type ReportContext } from './report-context.js';
import { repoRelative } from './repo-relative.js';

/**
 * GitLab code quality (`artifacts:reports:codequality`): an array of issues with description,
 * check_name, fingerprint, severity and a repository-relative location (GitLab's documented
 * subset of the Code Climate format). GitLab shows one issue per fingerprint, so equal findings
 * get distinct ones (findingFingerprints). Errors are `critical` (the portal would refuse the
 * release) and warnings `minor`; relctl has no finer severity. A finding without a file is
 * placed on the project's descriptor, line 1 (GitLab needs a path); with no descriptor, on `.`.
 */
export function findingsGitlab(report: CheckReport, ctx: ReportContext): Record<string, unknown>[] {
  const fingerprints = findingFingerprints(ctx, report.findings);
  return report.findings.map((f, i) => {
    const shown = displayedFile(ctx, f);
    const path = shown === undefined ? '.' : (repoRelative(ctx, shown.file) ?? shown.file);
    return {
      description: `${f.code}: ${f.message} Fix: ${f.fix}`,
      check_name: f.code,
      fingerprint: fingerprints[i],
      severity: f.severity === 'error' ? 'critical' : 'minor',
      location: { path, lines: { begin: shown?.line ?? 1 } },
    };
  });
}
