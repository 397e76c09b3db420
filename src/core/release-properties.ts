/**
 * maven-release-plugin's `release.properties` (written to the project root by release:prepare,
 * removed by release:clean). When prepare finished (`completedPhase=end-release`), the commits and
 * the tag exist and only release:perform is left: a resume runs that goal alone, with the same tag,
 * instead of treating the tag as an orphan and releasing the next version.
 */
export interface PreparedRelease {
  tag: string;
  version: string;
  nextVersion: string;
}

/** Parses Java properties text: `key=value` / `key: value`, `#`/`!` comments, `\` escapes and continuations. */
export function parseJavaProperties(text: string): Map<string, string> {
  const props = new Map<string, string>();
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i]!.replace(/^\s+/, '');
    if (line === '' || line.startsWith('#') || line.startsWith('!')) continue;
    // A line ending in an odd number of backslashes continues on the next one.
    while (/(^|[^\\])(\\\\)*\\$/.test(line) && i + 1 < lines.length) line = line.slice(0, -1) + lines[++i]!.replace(/^\s+/, '');
    let k = 0;
    while (k < line.length && !/[=:\s]/.test(line[k]!)) k += line[k] === '\\' ? 2 : 1;
    const key = unescape(line.slice(0, k));
    const value = unescape(line.slice(k).replace(/^\s*[=:]?\s*/, ''));
    props.set(key, value);
  }
  return props;
}

function unescape(s: string): string {
  return s.replace(/\\(u[0-9a-fA-F]{4}|.)/g, (_m, c: string) => {
    if (c.length === 5) return String.fromCharCode(parseInt(c.slice(1), 16));
    return ({ t: '\t', n: '\n', r: '\r', f: '\f' } as Record<string, string>)[c] ?? c;
  });
}

/**
 * The release prepare finished for `groupId:artifactId` (the reactor root), or undefined when the
 * file says prepare did not get to the end (a rerun of prepare resumes it by itself) or names
 * another project.
 */
export function preparedRelease(text: string, groupId: string, artifactId: string): PreparedRelease | undefined {
  const props = parseJavaProperties(text);
  if (props.get('completedPhase') !== 'end-release') return undefined;
  const tag = props.get('scm.tag');
  const version = props.get(`project.rel.${groupId}:${artifactId}`);
  const nextVersion = props.get(`project.dev.${groupId}:${artifactId}`);
  if (tag === undefined || version === undefined || nextVersion === undefined) return undefined;
  return { tag, version, nextVersion };
}
