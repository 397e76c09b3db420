/**
 * The distribution pins each component's version in gradle.properties (uPortal-start:
 * `notificationPortletVersion=5.1.0`). Pure text work: find the line, change its value, keep
 * every other byte (comments, order, spacing) as it was.
 */
export function versionPropertyName(artifactId: string): string {
  const words = artifactId.split(/[^A-Za-z0-9]+/).filter((w) => w !== '');
  return `${words.map((w, i) => (i === 0 ? w.charAt(0).toLowerCase() + w.slice(1) : w.charAt(0).toUpperCase() + w.slice(1))).join('')}Version`;
}

export interface PropertyLine {
  key: string;
  value: string;
  /** 1-based. */
  line: number;
}

const propertyLine = /^(\s*)([A-Za-z0-9_.-]+)(\s*[=:]\s*)(.*?)(\s*)$/;

export function readProperties(text: string): PropertyLine[] {
  const out: PropertyLine[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.replace(/\r$/, '');
    if (/^\s*[#!]/.test(line)) return;
    const m = propertyLine.exec(line);
    if (m !== null) out.push({ key: m[2]!, value: m[4]!, line: i + 1 });
  });
  return out;
}

export type PinLookup = { ok: true; property: PropertyLine } | { ok: false; reason: string };

/**
 * The property that pins the component: the configured key, else the camelCase
 * `<artifactId>Version` key (its value should be the previous release when one is given; a
 * mismatch is reported, not guessed around).
 */
export function findPinnedProperty(text: string, input: { property?: string; artifactId: string; previous?: string }): PinLookup {
  const props = readProperties(text);
  const key = input.property ?? versionPropertyName(input.artifactId);
  const hit = props.find((p) => p.key === key);
  if (hit !== undefined) return { ok: true, property: hit };
  if (input.property === undefined && input.previous !== undefined) {
    // Some distributions spell the key differently: accept one whose name matches case-insensitively.
    const loose = props.filter((p) => p.key.toLowerCase() === key.toLowerCase());
    if (loose.length === 1) return { ok: true, property: loose[0]! };
  }
  const candidates = input.previous === undefined ? [] : props.filter((p) => p.value === input.previous).map((p) => p.key);
  return {
    ok: false,
    reason:
      `gradle.properties has no ${key}` +
      (candidates.length > 0 ? ` (lines with the previous release ${input.previous}: ${candidates.join(', ')}; set distribution.property to the right one)` : ''),
  };
}

/** `text` with the value of `key` set to `value`; every other byte unchanged. */
export function setProperty(text: string, key: string, value: string): string {
  return text
    .split('\n')
    .map((raw) => {
      const cr = raw.endsWith('\r') ? '\r' : '';
      const line = cr === '' ? raw : raw.slice(0, -1);
      const m = propertyLine.exec(line);
      if (m === null || m[2] !== key || /^\s*[#!]/.test(line)) return raw;
      return `${m[1]}${m[2]}${m[3]}${value}${m[5]}${cr}`;
    })
    .join('\n');
}
