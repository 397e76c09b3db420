import type { ChosenVersions } from '../core/chosen-versions.js';
import { UsageError } from '../core/errors.js';
import { updateJournal, type Journal } from '../io/journal.js';
import type { CommandContext } from '../io/command-context.js';
import { readIdentity } from '../io/project.js';
import { isPublished, sourceOf } from './version-decision.js';

/**
 * The versions a chain's build releases: the flags of a new run, recorded in the journal; on
 * `--resume` / `--from` the recorded ones (the resumed build must release what the first run
 * named), and different flags then are a usage error rather than a second, different release.
 */
export async function settleChosenVersions(
  ctx: CommandContext,
  journal: Journal,
  o: { continuing: boolean; builds: boolean; dryRun: boolean; given?: ChosenVersions },
): Promise<ChosenVersions | undefined> {
  const recorded = journal.chosenVersions;
  if (o.continuing && recorded !== undefined) {
    if (o.given !== undefined && !same(o.given, recorded)) {
      throw new UsageError(`The unfinished release was started with ${flags(recorded)}, not ${flags(o.given)}.`, {
        kind: 'bad-version-option',
        fix: `Resume it without the version flags (it keeps ${flags(recorded)}), or start over with relctl release --restart ${flags(o.given)}.`,
      });
    }
    return recorded;
  }
  const chosen = o.given;
  if (chosen?.release !== undefined && o.builds) await refuseReleased(ctx, chosen.release);
  if (!o.dryRun && o.builds && (chosen !== undefined || recorded !== undefined)) {
    await updateJournal(ctx.cwd, (j) => {
      if (chosen === undefined) delete j.chosenVersions;
      else j.chosenVersions = { ...chosen };
    });
  }
  return chosen;
}

/**
 * `--release-version X` where X is already published (portal or public repository): refused before the first
 * step changes anything (exit 2). An unreachable repository is left to the build step, which asks
 * again with the orphan-tag rule.
 */
async function refuseReleased(ctx: CommandContext, version: string): Promise<void> {
  const identity = await readIdentity(ctx.cwd).catch(() => undefined);
  if (identity === undefined) return;
  let published: boolean;
  try {
    published = await isPublished(ctx, identity, version);
  } catch (error) {
    ctx.out.verbose(`Could not check whether ${version} is published yet (${(error as Error).message}); the build step checks again.`);
    return;
  }
  if (!published) return;
  throw new UsageError(`--release-version ${version}: ${identity.groupId}:${identity.artifactId}:${version} is already published ${sourceOf({ id: identity }, version)}.`, {
    kind: 'already-released',
    fix: `Name a version that was never released (e.g. above ${version}), or drop --release-version to release the snapshot's version.`,
  });
}

function same(a: ChosenVersions, b: ChosenVersions): boolean {
  return a.release === b.release && a.next === b.next;
}

function flags(c: ChosenVersions): string {
  return [c.release === undefined ? '' : `--release-version ${c.release}`, c.next === undefined ? '' : `--next-version ${c.next}`].filter((x) => x !== '').join(' ');
}
