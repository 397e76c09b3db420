import { attr, text } from '../../ui/render/findings-junit.js';
import type { FleetReport, FleetVerdict } from '../report-types.js';
import { oneLine } from './fleet-rows.js';

/**
 * The fleet's parent graph as inline SVG (DESIGN §13, `--format html`), as a tree that answers "who
 * waits on whom": one node a row, each child under its parent and indented one step, unrelated
 * roots apart. Each parent owns a lane (a vertical line just inside its left edge, under it) that
 * its children join from their left side: the rows between a parent and its child are that
 * parent's own subtree, indented further, so a lane crosses no node and two parents' lanes never
 * share a segment. A child with a second fleet parent reaches it through a lane of its own on the
 * right. A parent node says what it unblocks. Past `maxNodes` repositories only the parents are
 * drawn, each with its count of children.
 */

export const graphGeometry = { nodeWidth: 280, nodeHeight: 60, indent: 28, gapY: 12, rootGap: 28, margin: 16, laneInset: 14, extraLaneGap: 10, maxNodes: 30 } as const;

/** Fill, and stroke and verdict text, per verdict: the colour repeats the word, never replaces it. */
export const verdictColours: Record<FleetVerdict, { fill: string; ink: string }> = {
  ready: { fill: '#dafbe1', ink: '#116329' },
  blocked: { fill: '#ffebe9', ink: '#a40e26' },
  'waits-on-parent': { fill: '#fff8c5', ink: '#7d4e00' },
  'not-published': { fill: '#eaeef2', ink: '#424a53' },
  error: { fill: '#fbefff', ink: '#6e40c9' },
};

export interface GraphNode {
  name: string;
  verdict: FleetVerdict;
  /** Its depth in the tree (0: a root). */
  layer: number;
  row: number;
  x: number;
  y: number;
  /** The fleet repositories whose fixes it releases for them (`fixIn` names it). */
  unblocks: number;
  /** Its children in the report (all of them, also those not drawn). */
  children: number;
}

export interface GraphEdge {
  /** Child → parent, as indexes into `nodes`. */
  from: number;
  to: number;
  /** From the child's side to just below the parent's bottom (or to its right side, for a second parent). */
  points: [number, number][];
}

export interface GraphLayout {
  nodes: GraphNode[];
  edges: GraphEdge[];
  width: number;
  height: number;
  /** Repositories not drawn (past `maxNodes`: every one that is no parent). */
  hidden: number;
}

export function graphLayout(report: FleetReport): GraphLayout {
  const { nodeWidth, nodeHeight, indent, gapY, rootGap, margin, laneInset, extraLaneGap, maxNodes } = graphGeometry;
  const index = new Map<string, number>();
  report.repositories.forEach((r, i) => {
    if (!index.has(r.name)) index.set(r.name, i);
  });
  const all = uniqueEdges(report, index);
  const childCount = new Array<number>(report.repositories.length).fill(0);
  for (const e of all) childCount[e.to]!++;
  // Past maxNodes: only the parents (and the edges between them).
  const shown = report.repositories.map((_, i) => report.repositories.length <= maxNodes || childCount[i]! > 0);
  const links = all.filter((e) => shown[e.from] && shown[e.to]);
  const unblocks = report.repositories.map((r) => report.repositories.filter((c) => c.name !== r.name && c.fixIn.includes(r.name)).length);

  // Each node's first parent (in the report's edge order) places it; other parents get an extra lane.
  const placedUnder = new Array<number | undefined>(report.repositories.length).fill(undefined);
  for (const e of links) if (placedUnder[e.from] === undefined) placedUnder[e.from] = e.to;
  const kids = Array.from({ length: report.repositories.length }, () => [] as number[]);
  for (const [i, p] of placedUnder.entries()) if (p !== undefined) kids[p]!.push(i);

  const nodes: GraphNode[] = new Array<GraphNode>(report.repositories.length);
  let y = margin;
  let row = 0;
  const place = (i: number, depth: number): void => {
    if (nodes[i] !== undefined) return;
    const r = report.repositories[i]!;
    nodes[i] = { name: r.name, verdict: r.verdict, layer: depth, row, x: margin + depth * indent, y, unblocks: unblocks[i]!, children: childCount[i]! };
    row++;
    y += nodeHeight + gapY;
    for (const k of kids[i]!) place(k, depth + 1);
  };
  const roots = report.repositories.flatMap((_, i) => (shown[i] && placedUnder[i] === undefined ? [i] : []));
  const start = (i: number): void => {
    if (row > 0) y += rootGap;
    place(i, 0);
  };
  for (const i of roots) start(i);
  // A cycle has no root: its first member starts a tree of its own.
  for (const i of report.repositories.keys()) if (shown[i] && nodes[i] === undefined) start(i);

  const right = Math.max(margin + nodeWidth, ...nodes.filter((n) => n !== undefined).map((n) => n.x + nodeWidth));
  let extra = 0;
  const edges: GraphEdge[] = links.map((e) => {
    const [c, p] = [nodes[e.from]!, nodes[e.to]!];
    const cy = c.y + nodeHeight / 2;
    if (placedUnder[e.from] === e.to && c.row > p.row) {
      const lane = p.x + laneInset;
      return { ...e, points: [[c.x, cy], [lane, cy], [lane, p.y + nodeHeight + 2]] };
    }
    // A second parent (or a cycle's closing edge): a lane of its own, right of every node.
    extra++;
    const lane = right + extra * extraLaneGap;
    const py = p.y + nodeHeight / 2;
    return { ...e, points: [[c.x + nodeWidth, cy], [lane, cy], [lane, py], [p.x + nodeWidth + 2, py]] };
  });
  const drawn = nodes.filter((n) => n !== undefined);
  // Nodes drawn, kept in the report's order (an index per repository shown).
  const order = report.repositories.flatMap((_, i) => (nodes[i] === undefined ? [] : [i]));
  const at = new Map(order.map((i, k) => [i, k]));
  return {
    nodes: order.map((i) => nodes[i]!),
    edges: edges.map((e) => ({ ...e, from: at.get(e.from)!, to: at.get(e.to)! })),
    width: right + extra * extraLaneGap + margin,
    height: drawn.length === 0 ? 2 * margin : y - gapY + margin,
    hidden: report.repositories.length - drawn.length,
  };
}

function uniqueEdges(report: FleetReport, index: Map<string, number>): { from: number; to: number }[] {
  const seen = new Set<string>();
  const edges: { from: number; to: number }[] = [];
  for (const e of report.summary.edges) {
    const from = index.get(e.from);
    const to = index.get(e.to);
    if (from === undefined || to === undefined || from === to || seen.has(`${from} ${to}`)) continue;
    seen.add(`${from} ${to}`);
    edges.push({ from, to });
  }
  return edges;
}

/** Characters that fit a node's width; the whole name is the node's tooltip, and in the table. */
const fits = 34;

function clip(value: string): string {
  return value.length > fits ? `${value.slice(0, fits - 1)}…` : value;
}

export function fleetGraphSvg(report: FleetReport): string {
  const { nodeWidth: w, nodeHeight: h } = graphGeometry;
  const layout = graphLayout(report);
  const lines = layout.edges.map((e) => `<path class="edge" fill="none" data-parent=${attr(oneLine(layout.nodes[e.to]!.name))} d="M${e.points.map(([x, y]) => `${x},${y}`).join(' L')}" marker-end="url(#arrow)"/>`);
  const nodes = layout.nodes.map((n) => {
    const name = oneLine(n.name);
    // NAME without OWNER (the whole name is the tooltip): in a fleet the owner is mostly the same.
    const short = name.slice(name.indexOf('/') + 1);
    const { fill, ink } = verdictColours[n.verdict];
    const middle = n.x + w / 2;
    const counts = [...(n.unblocks > 0 ? [`unblocks ${n.unblocks}`] : []), ...(layout.hidden > 0 && n.children > 0 ? [`${n.children} ${n.children === 1 ? 'child' : 'children'}`] : [])].join(' · ');
    return [
      `<g class="node" data-verdict=${attr(n.verdict)} data-repository=${attr(name)}>`,
      `<title>${text(`${name}: ${n.verdict}${counts === '' ? '' : ` · ${counts}`}`)}</title>`,
      `<rect x="${n.x}" y="${n.y}" width="${w}" height="${h}" rx="6" fill="${fill}" stroke="${ink}"/>`,
      `<text x="${middle}" y="${n.y + 18}" class="name">${text(clip(short))}</text>`,
      `<text x="${middle}" y="${n.y + 36}" class="word" fill="${ink}">${text(n.verdict)}</text>`,
      ...(counts === '' ? [] : [`<text x="${middle}" y="${n.y + 52}" class="counts">${text(counts)}</text>`]),
      '</g>',
    ].join('');
  });
  const label = layout.hidden > 0 ? `parent graph: the fleet's parents only, ${layout.hidden} more repositories in the table` : 'parent graph: each repository under its parent, a line from each child to its parent';
  return [
    `<svg class="graph" viewBox="0 0 ${layout.width} ${layout.height}" width="${layout.width}" height="${layout.height}" role="img" aria-label=${attr(label)}>`,
    '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#57606a"/></marker></defs>',
    ...lines,
    ...nodes,
    '</svg>',
  ].join('\n');
}
