import { effectivePomFromText } from './index.js';

/**
 * groupId/artifactId/version/packaging of a POM's own project element (groupId and version fall
 * back to the parent's), read through the POM model: comments, CDATA and entities as XML has them,
 * and `${...}` resolved from the POM's own properties as Maven would.
 */
export function pomCoordinates(xml: string): { groupId?: string; artifactId?: string; version?: string; packaging: string } {
  const parsed = effectivePomFromText(xml, () => undefined);
  if (!parsed.ok) return { packaging: 'jar' };
  const { groupId, artifactId, version, packaging } = parsed.effective;
  return {
    ...(groupId === undefined ? {} : { groupId }),
    ...(artifactId === undefined ? {} : { artifactId }),
    ...(version === undefined ? {} : { version }),
    packaging,
  };
}
