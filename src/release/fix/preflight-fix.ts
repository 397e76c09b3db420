/**
 * `relctl preflight --fix` (DESIGN §4, Fixes): audit, plan every fix rule whose codes were found,
 * refuse a dirty worktree, then show the diff (`--dry-run`) or write the edits and audit again.
 * The rules are pure (src/checks/fixes); this module does the reading, writing and ordering.
 */
import { realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { StepFailedError } from '../../core/errors.js';
import type { FindingGroup } from '../../core/finding-groups.js';
import { toReport, type CheckReport } from '../../core/findings.js';
import type { FixDeclined, FixEdit, FixSource } from '../../core/fix/types.js';
import { unifiedDiff } from '../../core/fix/unified-diff.js';
import { maskDescriptorSecrets } from '../../core/xml-secrets.js';
import type { ProjectFacts } from '../../checks/facts.js';
import { auditProject } from '../../checks/audit.js';
import { declined as declinedAt } from '../../checks/fixes/edits.js';
import { fixRules } from '../../checks/fixes/index.js';
import { planFixes, type PlannedFix } from '../../checks/fixes/plan.js';
import type { FixRule } from '../../checks/fixes/types.js';
import { assertUnchanged, encodeLike, readFixFile, writeFixFile, type ReadFixFile } from '../../io/fix-files.js';
import { withPlannedTexts } from '../../io/descriptor.js';
import { runGit } from '../../io/git.js';
import type { CommandContext } from '../../io/command-context.js';

export interface PreflightFixOptions {
  offline: boolean;
  groups: ReadonlySet<FindingGroup>;
  dryRun: boolean;
  allowDirty: boolean;
  fixMetadata: boolean;
  /** `--bump-released`: bump a version whose release tag is at HEAD (see next-snapshot.ts). */
  bumpReleased?: boolean;
  /** Environment variable names a new `<server>` takes its credentials from. */
  usernameVariable: string;
  passwordVariable: string;
  /** The user chose those names (a CI settings file's own variables are then not reused). */
  variablesChosen?: boolean;
  /** The rules to plan with (the registry by default; tests may pass their own). */
  rules?: readonly FixRule[];
}

export interface PreflightFixResult {
  /** The audit the fixes were planned from. */
  before: CheckReport;
  /** The audit after writing (with --dry-run: of the files as the edits would leave them); absent when nothing was (or would be) changed. */
  after?: CheckReport;
  facts: ProjectFacts;
  /** The edits made (or, with --dry-run, that would be made). */
  edits: FixEdit[];
  declined: FixDeclined[];
  /** Files written, as named in edits (project-relative, or the absolute settings path). */
  written: string[];
  /** With --dry-run: one unified diff per changed file, concatenated. */
  diff: string;
}


/** Refuses to write into a worktree with other changes: the fix must stay one reviewable diff. */
function refuseDirty(facts: ProjectFacts): void {
  const git = facts.git;
  if (git === undefined || !git.isRepository) {
    throw new StepFailedError(`${facts.root} is not in a git repository, so the fix could not be reviewed as one diff.`, {
      kind: 'fix-not-reviewable',
      fix: 'Run relctl preflight --fix --dry-run to see the changes, or pass --allow-dirty to write them anyway.',
    });
  }
  if (git.dirtyFiles.length > 0) {
    const shown = git.dirtyFiles.slice(0, 5).join(', ') + (git.dirtyFiles.length > 5 ? `, and ${git.dirtyFiles.length - 5} more` : '');
    throw new StepFailedError(`The worktree has uncommitted changes (${shown}); relctl preflight --fix keeps its changes one reviewable diff.`, {
      kind: 'dirty-worktree',
      fix: 'Commit or stash the changes first, or pass --allow-dirty to fix anyway.',
    });
  }
}

function inside(root: string, abs: string): boolean {
  const rel = path.relative(root, abs);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

/**
 * Reads files for the rules: project files by relative path, and only the settings file preflight
 * used, when it is in the project or in the Maven home (`~/.m2`): a `-s` that a repository's
 * `.mvn/maven.config`, MAVEN_ARGS or CI configuration names elsewhere does not steer relctl's writes.
 */
class FileReader {
  readonly files = new Map<string, ReadFixFile>();
  readonly unreadable = new Map<string, string>();
  constructor(
    private readonly root: string,
    private readonly settingsFile: string | undefined,
    private readonly mavenHome: string,
  ) {}

  allowed = (file: string): boolean => this.resolve(file) !== undefined;
  /** Why a file the rules asked for may not be edited (undefined: it may be, or it is simply not there). */
  refused = (file: string): string | undefined => this.unreadable.get(file) ?? (file === this.settingsFile ? this.settingsPlace() : undefined);

  private settingsPlace(): string | undefined {
    const file = this.settingsFile;
    if (file === undefined) return undefined;
    if (inside(this.root, file) || inside(this.mavenHome, file)) return undefined;
    return `${file} (the settings file preflight used) is outside the project and outside the Maven home ${this.mavenHome}; relctl writes only those. Make the change there by hand, or keep the settings file in the project`;
  }

  private resolve(file: string): string | undefined {
    if (this.settingsFile !== undefined && file === this.settingsFile) return this.settingsPlace() === undefined ? file : undefined;
    if (path.isAbsolute(file)) return undefined;
    const abs = path.resolve(this.root, file);
    return inside(this.root, abs) ? abs : undefined;
  }

  read = (file: string): FixSource | undefined => {
    const known = this.files.get(file);
    if (known !== undefined) return known.bytes === undefined ? undefined : known.source;
    if (file === this.settingsFile && this.settingsPlace() !== undefined) this.unreadable.set(file, this.settingsPlace()!);
    const abs = this.resolve(file);
    if (abs === undefined || this.unreadable.has(file)) return undefined;
    const read = readFixFile(file, abs);
    if (!read.ok) {
      this.unreadable.set(file, read.why);
      return undefined;
    }
    // A project file linked to somewhere outside the project is not the project's to edit.
    if (file !== this.settingsFile && read.file.bytes !== undefined && !inside(realpathSync(this.root), read.file.abs)) {
      this.unreadable.set(file, `${file} is a link to ${read.file.abs}, outside the project; relctl does not edit it`);
      return undefined;
    }
    this.files.set(file, read.file);
    return read.file.bytes === undefined ? undefined : read.file.source;
  };
}

async function originUrl(ctx: CommandContext): Promise<string | undefined> {
  const r = await runGit(ctx.cwd, ['remote', 'get-url', 'origin'], { env: ctx.env });
  const url = r.stdout.trim();
  return r.ok && url !== '' ? url : undefined;
}

/**
 * The fix rules' plan for an audit's findings, reading project files and the settings file as
 * `--fix` may (the fleet asks it too, to list what `--fix` would edit).
 */
export function planProjectFixes(
  ctx: Pick<CommandContext, 'env'>,
  facts: ProjectFacts,
  findings: CheckReport['findings'],
  options: Pick<PreflightFixOptions, 'fixMetadata' | 'bumpReleased' | 'usernameVariable' | 'passwordVariable' | 'variablesChosen' | 'rules'> & { remoteUrl?: string },
): { plan: PlannedFix; reader: FileReader } {
  const reader = new FileReader(facts.root, facts.maven?.settings.file, path.join(ctx.env.HOME ?? os.homedir(), '.m2'));
  const plan = planFixes(
    options.rules ?? fixRules,
    {
      facts,
      findings,
      read: reader.read,
      unreadable: (file) => reader.unreadable.get(file),
      options: {
        fixMetadata: options.fixMetadata,
        ...(options.bumpReleased === true ? { bumpReleased: true } : {}),
        usernameVariable: options.usernameVariable,
        passwordVariable: options.passwordVariable,
        ...(options.variablesChosen === true ? { variablesChosen: true } : {}),
        ...(options.remoteUrl === undefined ? {} : { remoteUrl: options.remoteUrl }),
        ...(facts.maven === undefined ? {} : { settingsFile: facts.maven.settings.file }),
      },
    },
    reader.allowed,
    reader.refused,
  );
  return { plan, reader };
}

/** Plans, shows or writes the fixes, and audits again. Throws StepFailedError for a refused worktree or a changed file. */
export async function runPreflightFix(ctx: CommandContext, options: PreflightFixOptions): Promise<PreflightFixResult> {
  // The same audit as plain preflight: what --fix reports as left, and its exit code, are what
  // `relctl preflight` says next.
  const { facts, report } = await auditProject(ctx, options);
  if (!options.dryRun && !options.allowDirty) refuseDirty(facts);
  const remoteUrl = options.fixMetadata ? await originUrl(ctx) : undefined;
  const { plan, reader } = planProjectFixes(ctx, facts, report.findings, { ...options, ...(remoteUrl === undefined ? {} : { remoteUrl }) });
  const declined = [...plan.declined, ...[...reader.unreadable].map(([file, why]) => declinedAt('fix-unreadable', why, { file }))];
  const result: PreflightFixResult = { before: report, facts, edits: plan.edits, declined, written: [], diff: '' };
  if (options.dryRun) {
    result.diff = plan.files
      // Context lines show what is next to an edit: a mirror URL's credentials, a <gpg.passphrase>,
      // a settings file's passwords stay unprinted. Masked in each version by parsing it, before
      // the diff is made: in a diff's lines a value's comments or CDATA could no longer be read.
      .map((f) => unifiedDiff(displayName(f.file), reader.files.get(f.file)?.bytes === undefined ? undefined : maskDescriptorSecrets(f.before), maskDescriptorSecrets(f.after)))
      .join('');
    if (plan.files.length === 0) return result;
    // What would remain after the fix: the same audit, reading the planned texts instead of the files.
    const planned = new Map<string, string>();
    for (const f of plan.files) {
      planned.set(path.isAbsolute(f.file) ? f.file : path.resolve(facts.root, f.file), f.after);
      planned.set(reader.files.get(f.file)!.abs, f.after);
    }
    result.after = withoutOwnChange(report, (await withPlannedTexts(planned, () => auditProject(ctx, options))).report);
    return result;
  }
  if (plan.files.length === 0) return result;
  // Every file is checked before any is written, so a changed one (or an edit its encoding cannot
  // hold) stops the fix before it starts.
  for (const f of plan.files) {
    await assertUnchanged(reader.files.get(f.file)!);
    encodeLike(reader.files.get(f.file)!, f.after);
  }
  for (const f of plan.files) {
    const read = reader.files.get(f.file)!;
    // A settings file relctl creates holds credentials (as ${env.*} references): private from the start.
    await writeFixFile(read, f.after, f.file === facts.maven?.settings.file ? 0o600 : 0o644);
    result.written.push(f.file);
  }
  result.after = withoutOwnChange(report, (await auditProject(ctx, options)).report);
  return result;
}

/** The fix itself is the uncommitted change after it (meant to be reviewed and committed): not a finding it left. */
function withoutOwnChange(before: CheckReport, again: CheckReport): CheckReport {
  const causedByFix = !before.findings.some((f) => f.code === 'dirty-worktree');
  return causedByFix ? toReport(again.findings.filter((f) => f.code !== 'dirty-worktree'), again.skipped) : again;
}

/** The path a diff names: project-relative as is; the settings file without its leading slash (git's `a/` form). */
function displayName(file: string): string {
  return path.isAbsolute(file) ? file.replace(/^\/+/, '') : file;
}
