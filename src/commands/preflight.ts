import { Option } from './commander.js';
import { perCommandOption } from '../core/config/settings.js';
import { findingGroups, selectedGroups } from '../core/finding-groups.js';
import { gitFactsFor } from '../io/git.js';
import { refuseJsonWithReport, reportFormats } from './render/report-formats.js';
import type { Define } from './define.js';
import { addFindingControlOptions } from './finding-controls.js';
import { checkFixFlags, defaultPasswordVariable, defaultUsernameVariable } from './preflight-fix-flags.js';
import { addBudgetOptions } from '../release/options.js';

export const define: Define = (program, action) => {
  addFindingControlOptions(addBudgetOptions(program
    .command('preflight')
    .description('pre-release audit: descriptors, credentials, repository state, keys and namespace')
    .option('--offline', 'skip the checks that need the network (portal, key servers, public repository)')
    .option(...perCommandOption('namespace'))
    .option('--skip <groups...>', 'leave out these finding groups: descriptors, credentials, signing, repository, online')
    .option('--only <groups...>', 'check only these finding groups')
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'github', ...reportFormats]).default('text'))
    .option('--fix', 'apply the mechanical fixes of the findings as minimal text edits, then audit again')
    .option('--dry-run', 'with --fix: print the unified diff of every file it would change; write nothing')
    .option('--allow-dirty', 'with --fix: write even when the worktree has uncommitted changes')
    .option('--fix-metadata', 'with --fix: also fill <url> and <scm><url> from the git remote')
    .option('--bump-released', 'with --fix: move a released version to the next snapshot even while its release tag is at HEAD (the release not finished)')
    .option('--yes', 'no prompts (preflight --fix asks nothing; accepted for the contract of mutating commands)')
    .option('--token-username-env <name>', `with --fix: the variable a new <server> takes its username from (default ${defaultUsernameVariable})`)
    .option('--token-password-env <name>', `with --fix: the variable a new <server> takes its password from (default ${defaultPasswordVariable})`)))
    .action(
      action(async (ctx, opts) => {
        const offline = opts.offline === true;
        refuseJsonWithReport(ctx, opts.format);
        // Validated before any work: a bad group is a usage error (exit 2) naming it.
        const groups = selectedGroups(opts.skip as string[] | undefined, opts.only as string[] | undefined);
        checkFixFlags(opts);
        // The fix code (planning, diffs, guarded writes) is loaded only by the runs that fix.
        if (opts.fix === true) return (await import('./preflight-fix.js')).preflightFix(ctx, opts, { offline, groups });
        const left = findingGroups.filter((g) => !groups.has(g));
        if (left.length > 0) ctx.out.info(`note: not checked: the ${left.join(', ')} group${left.length === 1 ? '' : 's'}.`);
        // git works in a child process while the checks' code loads: preflight's start waits for
        // neither alone. The run (reading, checking, rendering) is its own chunk, loaded after.
        const git = gitFactsFor(ctx);
        return (await import('./preflight-run.js')).runPreflight(ctx, opts, { offline, groups, git });
      }),
    );
};
