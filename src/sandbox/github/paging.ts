/**
 * GitHub's list paging: `per_page` (default 30, at most 100) and `page` (from 1), and a `Link`
 * header built on the request's own URL with only `page` changed, so that @octokit's paginate
 * (which follows rel="next") walks the list as it does on GitHub.
 */
export function paginate<T>(items: readonly T[], query: URLSearchParams, self: URL): { items: T[]; headers: Record<string, string> } {
  const whole = (name: string, fallback: number): number => {
    const value = Number.parseInt(query.get(name) ?? '', 10);
    return Number.isFinite(value) && value >= 1 ? value : fallback;
  };
  const perPage = Math.min(100, whole('per_page', 30));
  const page = whole('page', 1);
  const last = Math.max(1, Math.ceil(items.length / perPage));
  const link = (n: number, rel: string): string => {
    const url = new URL(self);
    url.searchParams.set('page', String(n));
    return `<${url.href}>; rel="${rel}"`;
  };
  // GitHub's order: prev, next, last, first; no header when one page holds everything.
  const links = [
    ...(page > 1 ? [link(Math.min(page - 1, last), 'prev')] : []),
    ...(page < last ? [link(page + 1, 'next'), link(last, 'last')] : []),
    ...(page > 1 ? [link(1, 'first')] : []),
  ];
  const start = (page - 1) * perPage;
  return { items: items.slice(start, start + perPage), headers: links.length === 0 ? {} : { link: links.join(', ') } };
}
