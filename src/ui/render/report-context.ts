import { createHash } from 'node:crypto';
import path from 'node:path';
import type { Finding } from '../../core/findings.js';
import { repoRelative, toPosix } from './repo-relative.js';

/**
 * What the CI report renderers (SARIF, JUnit, GitLab code quality) need besides the findings.
 * Findings carry files relative to the project root (`--cwd`); code-scanning views want them
 * relative to the repository root, which is a parent folder when the project is a subfolder.
 */
export interface ReportContext {
  /** relctl's version. */
  version: string;
  /** Absolute project root (`--cwd`), forward slashes. */
  projectRoot: string;
  /** Absolute repository root (git's top level); the project root when it is not in a repository. */
  repoRoot: string;
  /** The project's top-level descriptor (`pom.xml`, `build.gradle.kts`, ...) relative to the project root, if any. */
  descriptor?: string;
}

export const relctlHomepage = 'https://github.com/relctl/relctl';
export const findingCodesUri = `${relctlHomepage}#finding-codes`;
export const fingerprintKey = 'relctlFindingHash/v1';

/** The absolute path of a project-relative file, forward slashes. */
export function absolutePath(ctx: ReportContext, projectFile: string): string {
  return path.posix.resolve(toPosix(ctx.projectRoot), toPosix(projectFile));
}

/**
 * The file a finding is shown on: its own, else the project's top-level descriptor (GitHub code
 * scanning shows a result only with a location; a finding about the repository or a key is about
 * the project as a whole). `line` is absent for the descriptor fallback.
 */
export function displayedFile(ctx: ReportContext, f: Finding): { file: string; line?: number } | undefined {
  if (f.file !== undefined) return f.line === undefined ? { file: f.file } : { file: f.file, line: f.line };
  return ctx.descriptor === undefined ? undefined : { file: ctx.descriptor };
}

/**
 * A finding's identity across runs: code, module, file and message, without line numbers, so an
 * unrelated edit that moves lines does not turn an old alert into a new one. Equal findings (same
 * code, module, file and message twice) are told apart by their order, which sortFindings fixes.
 */
export function findingFingerprints(ctx: ReportContext, findings: readonly Finding[]): string[] {
  const seen = new Map<string, number>();
  return findings.map((f) => {
    const file = f.file === undefined ? '' : (repoRelative(ctx, f.file) ?? f.file);
    const base = hash([f.code, f.module ?? '', file, withoutLineNumbers(f.message)].join('\0'));
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    return n === 0 ? base : hash(`${base}\0${n}`);
  });
}

/** `pom.xml:12` → `pom.xml`, `line 12` → `line`: the parts of a message an edit elsewhere changes. */
export function withoutLineNumbers(message: string): string {
  return message
    .replace(/(\.[A-Za-z0-9]+):\d+(?::\d+)?/g, '$1')
    .replace(/\b(lines?) \d+(?:\s*[-–]\s*\d+)?/gi, '$1');
}

function hash(s: string): string {
  return createHash('sha256').update(s).digest('hex');
}

/** A relative path as a URI reference: each segment percent-encoded (spaces, `#`, `%`, non-ASCII). */
export function pathToUriReference(rel: string): string {
  return rel.split('/').map(encodeURIComponent).join('/');
}

/** An absolute path as a `file://` URI (a trailing slash kept). */
export function fileUri(abs: string): string {
  const p = toPosix(abs);
  return `file://${p.startsWith('/') ? '' : '/'}${pathToUriReference(p)}`;
}
