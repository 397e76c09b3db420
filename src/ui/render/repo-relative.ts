import path from 'node:path';

/**
 * Paths from the repository root, for annotations and reports. Apart from report-context.ts so
 * that `--format github`, which needs only this, does not load the report renderers' hashing.
 */

/** Where a finding points, relative to the repository root (forward slashes); undefined when outside it. */
export function repoRelative(ctx: { projectRoot: string; repoRoot: string }, projectFile: string): string | undefined {
  const abs = path.posix.resolve(toPosix(ctx.projectRoot), toPosix(projectFile));
  const rel = path.posix.relative(toPosix(ctx.repoRoot), abs);
  return rel === '' || rel.startsWith('../') || path.posix.isAbsolute(rel) ? undefined : rel;
}

export function toPosix(p: string): string {
  return p.replace(/\\/g, '/');
}
