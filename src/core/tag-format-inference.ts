import { compareVersions, parseVersion } from './version.js';
import { defaultTagTemplate, knownTagTemplate, versionInTag, versionPlaceholderOf, type VersionSpelling } from './tag-forms.js';

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
}

function tokens(text: string): Token[] {
  return (text.match(/\d+|[A-Za-z]+|[^A-Za-z\d]+/g) ?? []).map((t) => ({
    kind: /^\d/.test(t) ? 'number' : /^[A-Za-z]/.test(t) ? 'word' : 'separator',
    text: t,
  }));
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
  /** version → tag */
  reads: Map<string, string>;
}

type Letters = 'same' | 'lower' | 'upper';

/** Every way `tag` spells a version of `shape` between a prefix and a suffix. */
function alignments(tag: string, shape: Token[]): { prefix: string; suffix: string; spelling: VersionSpelling; version: string }[] {
  const parts = tokens(tag);
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
    const prefix = parts.slice(0, start).map((t) => t.text).join('');
    const suffix = parts.slice(start + shape.length).map((t) => t.text).join('');
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

/** Does `a` say nothing `b` contradicts, and less? (a shape without `-` says nothing of dashes) */
function narrower(a: Candidate, b: Candidate): boolean {
  if (a === b || a.prefix !== b.prefix || a.suffix !== b.suffix) return false;
  const fields = ['letters', 'dot', 'dash'] as const;
  return fields.every((f) => a.spelling[f] === undefined || a.spelling[f] === b.spelling[f]) && fields.some((f) => a.spelling[f] === undefined && b.spelling[f] !== undefined);
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
    for (const shape of shapes.values()) {
      for (const a of alignments(tag, shape)) {
        const key = templateOf(a);
        const c = candidates.get(key) ?? { prefix: a.prefix, suffix: a.suffix, spelling: a.spelling, reads: new Map() };
        candidates.set(key, c);
        // The same version read from two tags is not evidence twice.
        if (!c.reads.has(a.version)) c.reads.set(a.version, tag);
      }
    }
  }
  // A reading from a shape without words or dashes joins the one fuller reading it agrees with.
  const all = [...candidates.values()];
  for (const c of all) {
    const fuller = all.filter((b) => narrower(c, b));
    if (fuller.length !== 1) continue;
    for (const [v, t] of c.reads) if (!fuller[0]!.reads.has(v)) fuller[0]!.reads.set(v, t);
    candidates.delete(templateOf(c));
  }
  const ranked = [...candidates.values()]
    .map((c) => ({ template: templateOf(c), evidence: readable(templateOf(c), c.reads) }))
    .sort((a, b) => b.evidence.length - a.evidence.length);
  const best = ranked[0];
  if (best === undefined || best.evidence.length === 0) return { evidence: [], why: `no tag spells a version shaped like ${[...shapes.keys()].join(' or ')}` };
  if (best.evidence.length < minimumTags) {
    return { evidence: [], why: `only ${best.evidence[0]!.tag} spells a version shaped like ${[...shapes.keys()].join(' or ')}; ${minimumTags} tags in one format are needed` };
  }
  const rival = ranked[1];
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

/** The reading of the highest version (the one a person recognises as the latest release). */
function newest(evidence: { tag: string; version: string }[]): { tag: string; version: string } {
  const parsed = (e: { version: string }) => parseVersion(e.version) ?? { numbers: [0], snapshot: false };
  return evidence.reduce((a, b) => (compareVersions(parsed(b), parsed(a)) > 0 ? b : a));
}

/** The readings the template reads back exactly (`2.0.0.Final` lower-cased reads back as `2.0.0-FINAL`: not evidence). */
function readable(template: string, reads: Map<string, string>): { tag: string; version: string }[] {
  return [...reads].filter(([version, tag]) => versionInTag(tag, '', template) === version).map(([version, tag]) => ({ tag, version }));
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
  const standard = tags.some((t) => {
    const v = versionInTag(t, artifactId ?? '', defaultTagTemplate);
    return v !== undefined && (shapes.size === 0 || shapes.has(shapeKey(v) ?? ''));
  });
  const kept = configured === undefined ? {} : { template: configured };
  if (standard || tags.length === 0) return kept;
  const learned = inferTagFormat(tags, versions);
  if (learned.template === undefined) return { ...kept, note: `No tag format learned from the project's ${tags.length} tags: ${learned.why}.` };
  return { template: learned.template, learned, note: `The project's tags are in its own format: ${learned.why}.` };
}
