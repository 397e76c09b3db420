import { describe, expect, it } from 'vitest';
import { fleetReportOf, hostile, hostileFleet, largeFleet, uportalFleet, uportalRepositories } from '../../../test/helpers/fleet-report.js';
import { fleetVerdicts } from '../report-types.js';
import { graphGeometry, graphLayout, type GraphLayout } from './fleet-graph.js';
import { fleetHtml } from './fleet-html.js';

const { nodeWidth, nodeHeight } = graphGeometry;

/** Whether a point lies inside a node's box (its border excluded). */
function inside(layout: GraphLayout, i: number, [x, y]: [number, number]): boolean {
  const n = layout.nodes[i]!;
  return x > n.x && x < n.x + nodeWidth && y > n.y && y < n.y + nodeHeight;
}

type Segment = [[number, number], [number, number]];

function segments(points: [number, number][]): Segment[] {
  return points.slice(1).map((p, k) => [points[k]!, p]);
}

/** Whether two axis-parallel segments lie on one line and share more than a point. */
function overlap([a, b]: Segment, [c, d]: Segment): boolean {
  const range = (p: number, q: number): [number, number] => [Math.min(p, q), Math.max(p, q)];
  const shared = ([p, q]: [number, number], [r, s]: [number, number]): boolean => Math.min(q, s) - Math.max(p, r) > 0;
  if (a[0] === b[0] && c[0] === d[0] && a[0] === c[0]) return shared(range(a[1], b[1]), range(c[1], d[1]));
  if (a[1] === b[1] && c[1] === d[1] && a[1] === c[1]) return shared(range(a[0], b[0]), range(c[0], d[0]));
  return false;
}

/** A child whose parent and grandparent are both fleet repositories, named as parents of it. */
function twoParents() {
  const [a, b, c] = uportalRepositories();
  const report = fleetReportOf([a!, b!, c!]);
  report.summary.edges = [
    { from: b!.name, to: a!.name },
    { from: c!.name, to: b!.name },
    { from: c!.name, to: a!.name },
  ];
  return report;
}

describe('graphLayout', () => {
  it('puts 20 repositories each under its parent, within 1232 pixels and without overlaps', () => {
    const report = largeFleet(20);
    const layout = graphLayout(report);
    expect(layout.nodes.map((n) => n.layer)).toEqual([0, 1, 1, ...new Array<number>(17).fill(2)]);
    expect(layout.width).toBeLessThanOrEqual(1232);
    for (const [i, a] of layout.nodes.entries()) {
      expect(a.x).toBeGreaterThanOrEqual(0);
      expect(a.x + nodeWidth).toBeLessThanOrEqual(layout.width);
      expect(a.y + nodeHeight).toBeLessThanOrEqual(layout.height);
      for (const b of layout.nodes.slice(i + 1)) {
        expect(a.x + nodeWidth <= b.x || b.x + nodeWidth <= a.x || a.y + nodeHeight <= b.y || b.y + nodeHeight <= a.y, `${a.name} overlaps ${b.name}`).toBe(true);
      }
    }
  });

  it.each([
    ['20 repositories under two parents', largeFleet(20)],
    ['the uPortal fleet', uportalFleet()],
    ['a child with two fleet parents', twoParents()],
  ])('draws each edge from the child to its parent through no other node, and edges to different parents share no segment: %s', (_name, report) => {
    const layout = graphLayout(report);
    expect(layout.edges).toHaveLength(report.summary.edges.length);
    for (const e of layout.edges) {
      const [child, parent] = [layout.nodes[e.from]!, layout.nodes[e.to]!];
      expect(child.y).toBeGreaterThan(parent.y);
      for (const [k, a] of e.points.slice(1).entries()) {
        const b = e.points[k]!;
        for (let t = 0; t <= 1; t += 1 / 64) {
          const point: [number, number] = [b[0] + (a[0] - b[0]) * t, b[1] + (a[1] - b[1]) * t];
          for (const n of layout.nodes.keys()) expect(inside(layout, n, point), `edge ${child.name} → ${parent.name} crosses ${layout.nodes[n]!.name}`).toBe(false);
        }
      }
    }
    for (const [i, e] of layout.edges.entries()) {
      for (const f of layout.edges.slice(i + 1)) {
        if (e.to === f.to) continue;
        for (const s of segments(e.points)) for (const u of segments(f.points)) expect(overlap(s, u), `${layout.nodes[e.from]!.name} → ${layout.nodes[e.to]!.name} and ${layout.nodes[f.from]!.name} → ${layout.nodes[f.to]!.name} share a segment`).toBe(false);
      }
    }
  });

  it('sets unrelated roots apart and says on each parent how many it unblocks', () => {
    const report = uportalFleet();
    const layout = graphLayout(report);
    const [parent, , , start, portlet] = layout.nodes;
    expect(start!.y - (layout.nodes[2]!.y + nodeHeight)).toBeGreaterThan(graphGeometry.gapY);
    expect(portlet!.y - (start!.y + nodeHeight)).toBeGreaterThan(graphGeometry.gapY);
    expect(parent!.unblocks).toBe(report.repositories.filter((r) => r.fixIn.includes(parent!.name)).length);
    expect(parent!.unblocks).toBeGreaterThan(0);
    expect(fleetHtml(report)).toContain(`class="counts">unblocks ${parent!.unblocks}</text>`);
  });

  it('past 30 repositories draws the parents only, with their counts', () => {
    const report = largeFleet(40);
    const layout = graphLayout(report);
    expect(layout.nodes.map((n) => n.name)).toEqual(['org/parent', 'org/portlet-parent', 'org/web-parent']);
    expect(layout.hidden).toBe(37);
    expect(layout.edges).toHaveLength(2);
    const html = fleetHtml(report);
    expect(html.match(/<g class="node"/g)).toHaveLength(3);
    expect(html).toMatch(/class="counts">(unblocks \d+ · )?19 children</);
    expect(html).toContain('parents only, 37 more repositories in the table');
  });

  it('keeps children under their parents and survives a cycle or an edge to nowhere', () => {
    const layout = graphLayout(uportalFleet());
    expect(layout.nodes.map((n) => [n.name.split('/')[1], n.layer])).toEqual([
      ['uportal-parent', 0],
      ['uPortal', 1],
      ['resource-server', 1],
      ['uPortal-start', 0],
      ['NotificationPortlet', 0],
    ]);
    const [a, b] = uportalRepositories();
    const cyclic = fleetReportOf([a!, b!]);
    cyclic.summary.edges = [
      { from: a!.name, to: b!.name },
      { from: b!.name, to: a!.name },
      { from: b!.name, to: 'nobody/anywhere' },
    ];
    expect(graphLayout(cyclic).nodes).toHaveLength(2);
  });
});

describe('fleetHtml', () => {
  it('is one page with a node and a row per repository and every verdict in words', () => {
    const report = uportalFleet();
    const html = fleetHtml(report);
    expect(html.startsWith('<!DOCTYPE html>\n<html lang="en">')).toBe(true);
    expect(html.match(/<g class="node"/g)).toHaveLength(report.repositories.length);
    expect(html.match(/<tr data-verdict=/g)).toHaveLength(report.repositories.length);
    for (const v of fleetVerdicts) expect(html).toContain(`class="word" fill="#`), expect(html).toContain(`<span class="verdict v-${v}">${v}</span>`);
    expect(html).toContain('<a href="https://github.com/uPortal-Project/uportal-parent/pull/42" rel="noopener noreferrer">#42 open</a>');
    // The column says where, so that "no" there never reads like the verdict not-published.
    expect(html).toContain('<th scope="col">on Maven Central</th>');
    expect(html).not.toContain('<th scope="col">published</th>');
    expect(html).toMatch(/<tr data-verdict="not-published">.*<td>no<\/td>/);
  });

  it('loads nothing and runs nothing: inline CSS, no script, a policy that forbids any load', () => {
    const html = fleetHtml(hostileFleet());
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`);
    // Escaped text holds no `<` and a quoted value no `"`: every tag and attribute is relctl's own.
    const tags = (html.match(/<[a-z][^>]*>/gi) ?? []).map((t) => t.replace(/"[^"]*"/g, (v) => (v.startsWith('"http') ? v : '""')));
    const links = tags.filter((t) => /^<(script|img|link|iframe|object|embed|image|use|foreignObject)\b|\s(src|href|xlink:href|on\w+)=/i.test(t));
    // Links only: each repository's page (its http(s) clone URL without .git) and the pull request.
    expect(links.every((t) => /^<a href="https:\/\/[^"]+" rel="">$/.test(t))).toBe(true);
    expect(links).toContain('<a href="https://github.com/uPortal-Project/uportal-parent/pull/42" rel="">');
    expect(links).toContain('<a href="https://github.com/uPortal-Project/uportal-parent" rel="">');
    expect(links).toContain('<a href="https://git.example.invalid/evil" rel="">');
    expect(html).not.toMatch(/@import|url\((?!#)/i);
    // The only URL is the pull request's link (not loaded); the hostile javascript: one is no link.
    expect(new Set(html.match(/https?:\/\/[^\s"<]*/g)).has('https://tracker.example.invalid/p.png)')).toBe(true);
    expect(html).not.toContain('javascript:alert(1)"');
  });

  it('escapes every value from a repository', () => {
    const html = fleetHtml(hostileFleet());
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('data-repository="evil-org/&lt;img src=x onerror=alert(1)&gt;|`x`"');
    expect(html).toContain('Developer "Jane Doe ::error::x" has no email');
    expect(html).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f\u202e]/);
    // The long name is whole in the table and the tooltip, clipped in its node.
    expect(html).toContain(`<td class="long"><a href="https://github.com/${hostile.longName}" rel="noopener noreferrer">${hostile.longName}</a></td>`);
    expect(html).toContain('class="name">very-long-repository-name-very-lo…</text>');
  });

  it('is deterministic', () => {
    expect(fleetHtml(largeFleet(20))).toBe(fleetHtml(JSON.parse(JSON.stringify(largeFleet(20))) as ReturnType<typeof largeFleet>));
  });
});
