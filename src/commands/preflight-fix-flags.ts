/** The flags of `relctl preflight --fix`, checked before anything runs; the fix itself is in preflight-fix.ts. */
import { UsageError } from '../core/errors.js';
import { isReportFormat } from './render/report-formats.js';

import { defaultPasswordVariable, defaultUsernameVariable } from '../checks/fixes/types.js';

export { defaultPasswordVariable, defaultUsernameVariable };

const envName = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Flags that only mean something with --fix are a usage error without it (exit 2, naming --fix). */
export function checkFixFlags(opts: Record<string, unknown>): void {
  if (opts.fix === true) {
    // A SARIF / JUnit / GitLab report is one document a code-scanning or CI view parses: the files
    // --fix wrote, its diff and what it declined have no place in it, and a report of the audit
    // before or after the edits would each mislead. `--format github` stays: annotations are lines.
    if (isReportFormat(opts.format)) {
      throw new UsageError(`--fix and --format ${opts.format} cannot be used together: --format ${opts.format} is the report of an audit, --fix changes files.`, {
        kind: 'bad-format',
        fix: `Run relctl preflight --fix (review and commit the change), then relctl preflight --format ${opts.format} for the report.`,
      });
    }
    for (const [flag, key] of [['--token-username-env', 'tokenUsernameEnv'], ['--token-password-env', 'tokenPasswordEnv']] as const) {
      const v = opts[key];
      if (typeof v === 'string' && !envName.test(v)) throw new UsageError(`${flag} "${v}" is not an environment variable name.`, { fix: `Pass a name such as ${defaultUsernameVariable}.` });
    }
    return;
  }
  const only = [['dryRun', '--dry-run'], ['allowDirty', '--allow-dirty'], ['fixMetadata', '--fix-metadata'], ['bumpReleased', '--bump-released'], ['tokenUsernameEnv', '--token-username-env'], ['tokenPasswordEnv', '--token-password-env']] as const;
  const used = only.filter(([key]) => opts[key] !== undefined && opts[key] !== false).map(([, flag]) => flag);
  if (used.length > 0) throw new UsageError(`${used.join(', ')} only applies to relctl preflight --fix.`, { fix: `Add --fix: relctl preflight --fix ${used.join(' ')}` });
}
