import { UsageError } from './errors.js';
import type { RepositoryKey } from './identifiers.js';

/**
 * The one place where values reach a URL (DESIGN §5). Path templates are written as tagged
 * templates: the literal text is relctl's own, every interpolated value is one path segment,
 * checked and percent-encoded exactly once (a RepositoryKey is three segments). Query values go
 * through URLSearchParams. The portal, key-server and public-repository URLs are all built here.
 */
export type PathValue = string | { repositoryKey: RepositoryKey } | { segments: readonly string[] };

function segment(value: string): string {
  // The WHATWG URL parser resolves "." and ".." (also as %2e) after encoding: refuse them here.
  if (value === '' || value === '.' || value === '..' || /^(\.|%2e)+$/i.test(value)) {
    throw new UsageError(`"${value}" cannot be one part of a request path.`, { kind: 'invalid-input', fix: 'Pass the id or key relctl printed.' });
  }
  return encodeURIComponent(value);
}

function encode(value: PathValue): string {
  if (typeof value === 'string') return segment(value);
  if ('segments' in value) return value.segments.map(segment).join('/');
  const k = value.repositoryKey;
  return [k.user, k.address, `${k.namespace}--default-repository`].map(segment).join('/');
}

/** `base` + the template with each value encoded as a path segment + the query. */
export function apiUrl(base: string, query: Record<string, string | undefined> = {}) {
  return (strings: TemplateStringsArray, ...values: PathValue[]): string => {
    let p = strings[0]!;
    values.forEach((v, i) => {
      p += encode(v) + strings[i + 1]!;
    });
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, v);
    const q = params.toString();
    return `${base.replace(/\/+$/, '')}${p}${q === '' ? '' : `?${q}`}`;
  };
}

