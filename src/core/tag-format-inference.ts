import { compareVersions, parseVersion } from './version.js';
import { defaultTagTemplate, knownTagTemplate, tagVersionReader, versionPlaceholderOf, type VersionSpelling } from './tag-forms.js';

/**
 * The project's own tag format, learned from its tags (issue 27): a project that tagged fifty
 * releases `rel_3_30_2_ga` for `3.30.2-GA` names its format by those tags even when no build file
 * configures it. A format is a prefix, a suffix and a spelling of the version (separators replaced,
 * letters' case changed); it is learned only when at least {@link minimumTags} tags agree on one
 * format and no other format fits as many. Pure.
 */

/** Tags that must agree before a format counts as the project's. */
const minimumTags = 2;

export interface TagFormatInference {
  /** The learned template (`rel_{version|lower|.=_|-=_}`), when the tags agree on one. */
  template?: string;
  /** The tags the template reads, each with its version, in the order of the tags given. */
  evidence: { tag: string; version: string }[];
  /** One sentence for --verbose: what was learned, or why nothing was. */
  why: string;
}

interface Token {
  kind: 'number' | 'word' | 'separator';
  text: string;
  /** Where it starts in the text. */
  at: number;
}

function tokens(text: string): Token[] {
  const out: Token[] = [];
  for (const m of text.matchAll(/\d+|[A-Za-z]+|[^A-Za-z\d]+/g)) {
    const t = m[0];
    out.push({ kind: /^\d/.test(t) ? 'number' : /^[A-Za-z]/.test(t) ? 'word' : 'separator', text: t, at: m.index });
  }
  return out;
}

/** A version's shape: its separators are `.` and `-` only, else it has none relctl can learn from. */
function shapeOf(version: string): Token[] | undefined {
  const release = version.trim().replace(/-SNAPSHOT$/, '');
  const shape = tokens(release);
  if (shape[0]?.kind !== 'number' || shape.some((t) => t.kind === 'separator' && t.text !== '.' && t.text !== '-')) return undefined;
  return shape;
}

/** `N.N.N-GA`: numbers stand for any number, words stay. */
function shapeKey(version: string): string | undefined {
  return shapeOf(version)?.map((t) => (t.kind === 'number' ? 'N' : t.text)).join('');
}

interface Candidate {
  prefix: string;
  suffix: string;
  spelling: VersionSpelling;
  reads: Readings;
}

/**
 * version → the first tag that reads it. The first reading is kept as is, a map only from the
 * second on: of 40,000 CI tags most candidates read one version each.
 */
class Readings implements Iterable<[string, string]> {
  private more: Map<string, string> | undefined;

  constructor(
    private readonly version: string,
    private readonly tag: string,
  ) {}

  get size(): number {
    return this.more?.size ?? 1;
  }

  /** Keeps the first tag of each version: the same version read from two tags is not evidence twice. */
  add(version: string, tag: string): void {
    if (this.more === undefined) {
      if (version === this.version) return;
      this.more = new Map([[this.version, this.tag]]);
    }
    if (!this.more.has(version)) this.more.set(version, tag);
  }

  [Symbol.iterator](): Iterator<[string, string]> {
    return (this.more ?? new Map([[this.version, this.tag]]))[Symbol.iterator]();
  }
}

type Letters = 'same' | 'lower' | 'upper';

/** Every way `tag` (its `parts`) spells a version of `shape` between a prefix and a suffix. */
function alignments(tag: string, parts: readonly Token[], shape: readonly Token[]): { prefix: string; suffix: string; spelling: VersionSpelling; version: string }[] {
  const out: ReturnType<typeof alignments> = [];
  for (let start = 0; start + shape.length <= parts.length; start++) {
    const separators: Record<string, string> = {};
    let letters: Set<Letters> | undefined;
    let version = '';
    let fits = true;
    for (let i = 0; fits && i < shape.length; i++) {
      const want = shape[i]!;
      const got = parts[start + i]!;
      if (got.kind !== want.kind) fits = false;
      else if (want.kind === 'number') version += got.text;
      else if (want.kind === 'separator') {
        fits = (separators[want.text] ??= got.text) === got.text;
        version += want.text;
      } else {
        const ways = new Set<Letters>();
        if (got.text === want.text) ways.add('same');
        if (got.text === want.text.toLowerCase()) ways.add('lower');
        if (got.text === want.text.toUpperCase()) ways.add('upper');
        letters = new Set([...(letters ?? ways)].filter((w) => ways.has(w)));
        fits = letters.size > 0;
        version += want.text;
      }
    }
    if (!fits) continue;
    const prefix = tag.slice(0, parts[start]!.at);
    const suffix = start + shape.length < parts.length ? tag.slice(parts[start + shape.length]!.at) : '';
    // Template syntax stays out of the fixed parts.
    if (/[{}$@|]/.test(prefix + suffix)) continue;
    const spelling: VersionSpelling = {};
    if (letters !== undefined && !letters.has('same')) spelling.letters = letters.has('lower') ? 'lower' : 'upper';
    if (separators['.'] !== undefined) spelling.dot = separators['.'];
    if (separators['-'] !== undefined) spelling.dash = separators['-'];
    out.push({ prefix, suffix, spelling, version });
  }
  return out;
}

function templateOf(c: Pick<Candidate, 'prefix' | 'suffix' | 'spelling'>): string {
  return `${c.prefix}${versionPlaceholderOf(c.spelling)}${c.suffix}`;
}

const spellingFields = ['letters', 'dot', 'dash'] as const;
type SpellingField = (typeof spellingFields)[number];

function definedFields(c: Candidate): SpellingField[] {
  return spellingFields.filter((f) => c.spelling[f] !== undefined);
}

/** Prefix, suffix and the values of `fields`: equal for two candidates that agree on those fields. */
function agreementKey(c: Candidate, fields: readonly SpellingField[]): string {
  // NUL never occurs in a tag (git refuses it in a ref name): a separator nothing else contains.
  let key = `${c.prefix}\u0000${c.suffix}`;
  for (const f of fields) key += `\u0000${f}=${c.spelling[f]}`;
  return key;
}

/**
 * `a` is narrower than `b` (says nothing `b` contradicts, and less: a shape without `-` says
 * nothing of dashes) exactly when `b` has a's prefix, suffix and spelling on every field `a` sets,
 * and is not `a` (two candidates that set the same fields alike are one template). So each
 * candidate is filed under every subset of the fields it sets (at most eight keys), and a's
 * fuller candidates are those filed under a's own key, a aside: linear in the candidates, where
 * comparing every pair was quadratic (40,000 tags, minutes).
 */
function agreementIndex(all: readonly Candidate[]): Map<string, Candidate[]> {
  const index = new Map<string, Candidate[]>();
  // Candidates that all set the same fields are never narrower than one another (one shape without words: the usual case).
  const sets = new Set(all.map((c) => definedFields(c).join()));
  if (sets.size < 2) return index;
  for (const c of all) {
    const fields = definedFields(c);
    for (let mask = 0; mask < 1 << fields.length; mask++) {
      const key = agreementKey(c, fields.filter((_, i) => (mask & (1 << i)) !== 0));
      const filed = index.get(key);
      if (filed === undefined) index.set(key, [c]);
      else filed.push(c);
    }
  }
  return index;
}

/**
 * Learns the format of `tags` for the component's `versions` (released ones, and the one about to
 * be released: their shapes say how many numbers and which words a version has). Ambiguous or
 * inconsistent tags learn nothing, and `why` says so.
 */
export function inferTagFormat(tags: readonly string[], versions: readonly string[]): TagFormatInference {
  const shapes = new Map<string, Token[]>();
  for (const v of versions) {
    const shape = shapeOf(v);
    if (shape !== undefined) shapes.set(shapeKey(v)!, shape);
  }
  if (shapes.size === 0) return { evidence: [], why: 'no version of the component to compare the tags with' };
  const candidates = new Map<string, Candidate>();
  for (const tag of tags) {
    const parts = tokens(tag);
    for (const shape of shapes.values()) {
      for (const a of alignments(tag, parts, shape)) {
        const key = templateOf(a);
        const c = candidates.get(key);
        if (c === undefined) candidates.set(key, { prefix: a.prefix, suffix: a.suffix, spelling: a.spelling, reads: new Readings(a.version, tag) });
        else c.reads.add(a.version, tag);
      }
    }
  }
  // A reading from a shape without words or dashes joins the one fuller reading it agrees with.
  const all = [...candidates.values()];
  const agreeing = agreementIndex(all);
  for (const c of agreeing.size === 0 ? [] : all) {
    // Every candidate that agrees with c on what c says, c aside: the fuller ones (see narrower).
    const filed = agreeing.get(agreementKey(c, definedFields(c)))!;
    if (filed.length !== 2) continue;
    const fuller = filed[0] === c ? filed[1]! : filed[0]!;
    for (const [v, t] of c.reads) fuller.reads.add(v, t);
    candidates.delete(templateOf(c));
  }
  const [best, rival] = topTwo([...candidates.values()]);
  if (best === undefined || best.evidence.length === 0) return { evidence: [], why: `no tag spells a version shaped like ${[...shapes.keys()].join(' or ')}` };
  if (best.evidence.length < minimumTags) {
    return { evidence: [], why: `only ${best.evidence[0]!.tag} spells a version shaped like ${[...shapes.keys()].join(' or ')}; ${minimumTags} tags in one format are needed` };
  }
  if (rival !== undefined && rival.evidence.length >= minimumTags) {
    return {
      evidence: [],
      why: `the tags fit more than one format: ${best.template} (${best.evidence.length} tags, e.g. ${best.evidence[0]!.tag}) and ${rival.template} (${rival.evidence.length}, e.g. ${rival.evidence[0]!.tag})`,
    };
  }
  const example = newest(best.evidence);
  return {
    template: best.template,
    evidence: best.evidence,
    why: `tag format ${best.template} learned from ${best.evidence.length} tags (${example.version} is tagged ${example.tag})`,
  };
}

interface Ranked {
  template: string;
  evidence: { tag: string; version: string }[];
  /** Its place among the candidates (ties keep it). */
  at: number;
}

/**
 * The two candidates with the most evidence, ties in the order given (what a stable sort by evidence
 * would put first). A candidate's evidence is at most its readings, so evidence is read, most
 * readings first, only while a candidate may still enter the two: of 40,000 tags that each read a
 * different single version, one is read, not 40,000. A second candidate matters only with
 * {@link minimumTags} readings (below that the first decides alone).
 */
function topTwo(candidates: readonly Candidate[]): [Ranked | undefined, Ranked | undefined] {
  const order = candidates.map((c, at) => ({ c, at })).sort((a, b) => b.c.reads.size - a.c.reads.size || a.at - b.at);
  let first: Ranked | undefined;
  let second: Ranked | undefined;
  const beats = (size: number, at: number, r: Ranked | undefined) => r === undefined || size > r.evidence.length || (size === r.evidence.length && at < r.at);
  for (const { c, at } of order) {
    const size = c.reads.size;
    if (!beats(size, at, first) && !(size >= minimumTags && beats(size, at, second))) break;
    const template = templateOf(c);
    const ranked = { template, evidence: readable(template, c.reads), at };
    if (beats(ranked.evidence.length, at, first)) [first, second] = [ranked, first];
    else if (beats(ranked.evidence.length, at, second)) second = ranked;
  }
  return [first, second];
}

/** The reading of the highest version (the one a person recognises as the latest release). */
function newest(evidence: { tag: string; version: string }[]): { tag: string; version: string } {
  const parsed = (e: { version: string }) => parseVersion(e.version) ?? { numbers: [0], snapshot: false };
  return evidence.reduce((a, b) => (compareVersions(parsed(b), parsed(a)) > 0 ? b : a));
}

/** The readings the template reads back exactly (`2.0.0.Final` lower-cased reads back as `2.0.0-FINAL`: not evidence). */
function readable(template: string, reads: Readings): { tag: string; version: string }[] {
  const read = tagVersionReader('', template);
  const out: { tag: string; version: string }[] = [];
  for (const [version, tag] of reads) if (read(tag) === version) out.push({ tag, version });
  return out;
}

export interface TagTemplateChoice {
  /** The template to use: the configured one, or the learned one; undefined: relctl's default forms. */
  template?: string;
  /** Set when a format was learned from the tags. */
  learned?: TagFormatInference;
  /** For --verbose: what was learned, or why nothing was; undefined when there was nothing to learn. */
  note?: string;
}

/**
 * The tag template a command uses: the configured one when relctl can fill it; else, when no tag
 * spells a version of the component in a standard form (`<artifactId>-X.Y.Z`, `vX.Y.Z`,
 * `X.Y.Z`), the one learned from the tags.
 */
export function chooseTagTemplate(configured: string | undefined, tags: readonly string[], versions: readonly string[], artifactId: string | undefined): TagTemplateChoice {
  if (configured !== undefined && knownTagTemplate(configured)) return { template: configured };
  const shapes = new Set(versions.map(shapeKey).filter((k): k is string => k !== undefined));
  const read = tagVersionReader(artifactId ?? '', defaultTagTemplate);
  const standard = tags.some((t) => {
    const v = read(t);
    return v !== undefined && (shapes.size === 0 || shapes.has(shapeKey(v) ?? ''));
  });
  const kept = configured === undefined ? {} : { template: configured };
  if (standard || tags.length === 0) return kept;
  const learned = inferTagFormat(tags, versions);
  if (learned.template === undefined) return { ...kept, note: `No tag format learned from the project's ${tags.length} tags: ${learned.why}.` };
  return { template: learned.template, learned, note: `The project's tags are in its own format: ${learned.why}.` };
}
