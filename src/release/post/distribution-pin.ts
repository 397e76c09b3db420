import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from '../../core/errors.js';
import { findPinnedProperty } from '../../core/post-release/pin-property.js';
import type { CommandContext } from '../../io/command-context.js';

/**
 * The distribution's pin of the component in a gradle.properties text (distribute, smoke); a usage
 * error when there is none. `previous` (the last release) lets distribute name candidate keys.
 */
export function pinIn(text: string, ctx: CommandContext, artifactId: string, previous?: string): { property: string; version: string } {
  const configured = ctx.config.distribution?.property;
  const found = findPinnedProperty(text, { artifactId, ...(configured === undefined ? {} : { property: configured }), ...(previous === undefined ? {} : { previous }) });
  if (!found.ok) {
    throw new UsageError(`The distribution does not pin ${artifactId}: ${found.reason}.`, { fix: 'Set distribution.property in relctl.config.json to the gradle.properties key that pins it.' });
  }
  return { property: found.property.key, version: found.property.value };
}

/**
 * The version of the component the folder deploys (its gradle.properties pin), for the report;
 * undefined when the folder pins none or the project's name is unknown (smoke still runs).
 */
export async function deployedPin(ctx: CommandContext, folder: string, artifactId: string | undefined): Promise<{ property: string; version: string } | undefined> {
  if (artifactId === undefined) return undefined;
  const text = await readFile(path.join(folder, 'gradle.properties'), 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  try {
    return pinIn(text, ctx, artifactId);
  } catch {
    return undefined;
  }
}
