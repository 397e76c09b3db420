/**
 * The Publisher API's `GET /api/v1/publisher/published?namespace=&name=&version=` answer:
 * `{"published": true|false}` (JReleaser's PublishedStatus reads the same one field and ignores
 * the rest). Anything else is no answer: undefined, never a guess. Pure.
 */
export function decodePublished(json: unknown): boolean | undefined {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return undefined;
  const value = (json as Record<string, unknown>).published;
  return typeof value === 'boolean' ? value : undefined;
}
