import { attr, text } from '../../ui/render/findings-junit.js';
import type { FleetReport, FleetVerdict } from '../report-types.js';
import { oneLine } from './fleet-rows.js';

/**
 * The fleet's parent graph as inline SVG (DESIGN §13, `--format html`): one node per repository,
 * parents above their children (a node's layer is its depth in the graph of `summary.edges`), an
 * arrow from each child to its parent. A layer wider than `perRow` nodes wraps into more rows, so a
 * 20-repository fleet fits 1280 pixels without overlapping nodes. Nodes sit on a grid of columns;
 * an edge that must cross rows runs up the gap between two columns, never through a node.
 */

export const graphGeometry = { nodeWidth: 220, nodeHeight: 64, gapX: 24, gapY: 56, margin: 16, perRow: 5 } as const;

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
  layer: number;
  row: number;
  column: number;
  x: number;
  y: number;
}

export interface GraphEdge {
  /** Child → parent, as indexes into `nodes`. */
  from: number;
  to: number;
  /** From the child's top to just below the parent's bottom. */
  points: [number, number][];
}

export interface GraphLayout {
  nodes: GraphNode[];
  edges: GraphEdge[];
  width: number;
  height: number;
}

export function graphLayout(report: FleetReport): GraphLayout {
  const { nodeWidth, nodeHeight, gapX, gapY, margin, perRow } = graphGeometry;
  const index = new Map<string, number>();
  report.repositories.forEach((r, i) => {
    if (!index.has(r.name)) index.set(r.name, i);
  });
  const links = uniqueEdges(report, index);
  const layers = depths(report.repositories.length, links);
  const layerCount = Math.max(0, ...layers.map((l) => l + 1));
  const widest = Math.max(1, ...Array.from({ length: layerCount }, (_, l) => layers.filter((x) => x === l).length));
  const columns = Math.min(perRow, widest);
  const columnX = (column: number): number => margin + column * (nodeWidth + gapX);

  const nodes: GraphNode[] = new Array<GraphNode>(report.repositories.length);
  let row = 0;
  for (let layer = 0; layer < layerCount; layer++) {
    // Children under their parents: a layer in the order of its parents' places (then the report's).
    const centre = (i: number): number => {
      const xs = links.filter((e) => e.from === i && nodes[e.to] !== undefined).map((e) => nodes[e.to]!.x);
      return xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length;
    };
    const members = layers.flatMap((l, i) => (l === layer ? [i] : [])).map((i) => ({ i, at: centre(i) }));
    members.sort((a, b) => a.at - b.at || a.i - b.i);
    for (let start = 0; start < members.length; start += perRow, row++) {
      const slice = members.slice(start, start + perRow);
      const offset = Math.floor((columns - slice.length) / 2);
      slice.forEach(({ i }, k) => {
        const r = report.repositories[i]!;
        const column = offset + k;
        nodes[i] = { name: r.name, verdict: r.verdict, layer, row, column, x: columnX(column), y: margin + row * (nodeHeight + gapY) };
      });
    }
  }
  const edges = links.map((e) => ({ ...e, points: route(nodes[e.from]!, nodes[e.to]!, columnX) }));
  const width = 2 * margin + columns * nodeWidth + (columns - 1) * gapX;
  const height = 2 * margin + row * nodeHeight + Math.max(0, row - 1) * gapY;
  return { nodes, edges, width, height };
}

/**
 * Straight up to a parent in the row above; to one further up, along the gap above the child's
 * row to the gap between two columns (on the parent's side), up that gap, and along the gap below
 * the parent's row: gaps hold no node.
 */
function route(child: GraphNode, parent: GraphNode, columnX: (column: number) => number): [number, number][] {
  const { nodeWidth, nodeHeight, gapX, gapY } = graphGeometry;
  const from: [number, number] = [child.x + nodeWidth / 2, child.y];
  const to: [number, number] = [parent.x + nodeWidth / 2, parent.y + nodeHeight + 2];
  if (child.row <= parent.row + 1) return [from, to];
  const left = columnX(child.column) - gapX / 2;
  const right = columnX(child.column) + nodeWidth + gapX / 2;
  const street = Math.abs(left - to[0]) <= Math.abs(right - to[0]) ? left : right;
  const above = child.y - gapY / 2;
  const below = parent.y + nodeHeight + gapY / 2;
  return [from, [from[0], above], [street, above], [street, below], [to[0], below], to];
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

/** Each node's depth: 0 without a fleet parent, else one below its deepest parent; a cycle is cut where it closes. */
function depths(count: number, edges: { from: number; to: number }[]): number[] {
  const parents = Array.from({ length: count }, () => [] as number[]);
  for (const e of edges) parents[e.from]!.push(e.to);
  const depth = new Array<number | undefined>(count).fill(undefined);
  const visiting = new Set<number>();
  const visit = (i: number): number => {
    const known = depth[i];
    if (known !== undefined) return known;
    if (visiting.has(i)) return -1;
    visiting.add(i);
    const d = 1 + Math.max(-1, ...parents[i]!.map(visit));
    visiting.delete(i);
    depth[i] = d;
    return d;
  };
  return Array.from({ length: count }, (_, i) => visit(i));
}

/** Characters that fit a node's width; the whole name is the node's tooltip, and in the table. */
const fits = 30;

function clip(value: string): string {
  return value.length > fits ? `${value.slice(0, fits - 1)}…` : value;
}

export function fleetGraphSvg(report: FleetReport): string {
  const { nodeWidth: w, nodeHeight: h } = graphGeometry;
  const layout = graphLayout(report);
  const lines = layout.edges.map((e) => `<path class="edge" fill="none" d="M${e.points.map(([x, y]) => `${x},${y}`).join(' L')}" marker-end="url(#arrow)"/>`);
  const nodes = layout.nodes.map((n) => {
    const name = oneLine(n.name);
    // OWNER above NAME: in a fleet the owner is mostly the same, the name is what tells nodes apart.
    const slash = name.indexOf('/');
    const [owner, short] = slash < 0 ? ['', name] : [name.slice(0, slash + 1), name.slice(slash + 1)];
    const { fill, ink } = verdictColours[n.verdict];
    const middle = n.x + w / 2;
    return [
      `<g class="node" data-verdict=${attr(n.verdict)} data-repository=${attr(name)}>`,
      `<title>${text(`${name}: ${n.verdict}`)}</title>`,
      `<rect x="${n.x}" y="${n.y}" width="${w}" height="${h}" rx="6" fill="${fill}" stroke="${ink}"/>`,
      `<text x="${middle}" y="${n.y + 18}" class="owner">${text(clip(owner))}</text>`,
      `<text x="${middle}" y="${n.y + 36}" class="name">${text(clip(short))}</text>`,
      `<text x="${middle}" y="${n.y + 54}" class="word" fill="${ink}">${text(n.verdict)}</text>`,
      '</g>',
    ].join('');
  });
  return [
    `<svg class="graph" viewBox="0 0 ${layout.width} ${layout.height}" width="${layout.width}" height="${layout.height}" role="img" aria-label="parent graph: an arrow goes from each repository to its parent">`,
    '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#57606a"/></marker></defs>',
    ...lines,
    ...nodes,
    '</svg>',
  ].join('\n');
}
