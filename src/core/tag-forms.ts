/**
 * Release tag forms (DESIGN §4): a release of `X.Y.Z` may have been tagged `<artifactId>-X.Y.Z`
 * (the Maven release plugin's default and relctl's), `vX.Y.Z`, `X.Y.Z`, or in the build's own
 * configured format. Preflight (orphan-tag) and the release chain's version decision both look
 * tags up through this one module. Pure.
 */

/** relctl's tag template (DESIGN §6); `{artifactId}` and `{version}` are replaced. */
export const defaultTagTemplate = '{artifactId}-{version}';

/**
 * How a tag spells the version when it is not written as is: `{version|lower|.=_|-=_}` is
 * `3.30.2-GA` written `3_30_2_ga`. relctl writes such a placeholder for a format it learned from
 * the project's tags (see tag-format-inference.ts); `lower`/`upper` change the letters' case and
 * `S=R` replaces the version's separator S (`.` or `-`) with R.
 */
export interface VersionSpelling {
  letters?: 'lower' | 'upper';
  /** What `.` and `-` become; absent: kept. */
  dot?: string;
  dash?: string;
}

const versionPlaceholder = /\{version((?:\|[^|{}]+)*)\}/g;

function spellingOf(options: string): VersionSpelling {
  const spelling: VersionSpelling = {};
  for (const option of options.split('|').slice(1)) {
    if (option === 'lower' || option === 'upper') spelling.letters = option;
    else if (option.startsWith('.=')) spelling.dot = option.slice(2);
    else if (option.startsWith('-=')) spelling.dash = option.slice(2);
  }
  return spelling;
}

/** The placeholder text for a spelling: `{version}` when nothing changes. */
export function versionPlaceholderOf(spelling: VersionSpelling): string {
  const options = [
    ...(spelling.letters === undefined ? [] : [spelling.letters]),
    ...(spelling.dot === undefined || spelling.dot === '.' ? [] : [`.=${spelling.dot}`]),
    ...(spelling.dash === undefined || spelling.dash === '-' ? [] : [`-=${spelling.dash}`]),
  ];
  return `{version${options.map((o) => `|${o}`).join('')}}`;
}

function spell(version: string, spelling: VersionSpelling): string {
  const cased = spelling.letters === 'lower' ? version.toLowerCase() : spelling.letters === 'upper' ? version.toUpperCase() : version;
  return cased.replace(/[.-]/g, (sep) => (sep === '.' ? (spelling.dot ?? '.') : (spelling.dash ?? '-')));
}

/**
 * The version a spelled text stands for, or undefined when it is not one. A separator both `.`
 * and `-` become is read as `.` between two numbers and `-` elsewhere (`3_30_2_ga` → `3.30.2-GA`);
 * lower-cased letters are read upper-case. Only a reading that spells back to the text counts.
 */
function unspell(text: string, spelling: VersionSpelling): string | undefined {
  const dot = spelling.dot ?? '.';
  const dash = spelling.dash ?? '-';
  const runs = text.match(/[A-Za-z\d]+|[^A-Za-z\d]+/g) ?? [];
  let out = '';
  for (let i = 0; i < runs.length; i++) {
    const run = runs[i]!;
    if (/^[A-Za-z\d]/.test(run)) {
      out += spelling.letters === 'lower' ? run.toUpperCase() : spelling.letters === 'upper' ? run.toLowerCase() : run;
      continue;
    }
    const between = /^\d+$/.test(runs[i - 1] ?? '') && /^\d+$/.test(runs[i + 1] ?? '');
    if (run === dot && run === dash) out += between ? '.' : '-';
    else if (run === dot) out += '.';
    else if (run === dash) out += '-';
    else return undefined;
  }
  return spell(out, spelling) === text ? out : undefined;
}

/**
 * Renders a tag template. Besides relctl's `{artifactId}`/`{version}` (also spelled, see
 * {@link VersionSpelling}) it understands the Gradle release plugin's `$version`, `${version}`,
 * `$name`, `${name}` and the Maven release plugin's `tagNameFormat` (`@{project.artifactId}`,
 * `@{project.version}`, `@{version}`), so a template read from a build file can be used as is.
 */
export function renderTag(template: string, artifactId: string, version: string): string {
  return template
    .replace(/\{artifactId\}|@\{(?:project\.)?artifactId\}|\$\{name\}|\$name\b/g, () => artifactId)
    .replace(/@\{(?:project\.)?version\}|\$\{version\}|\$version\b/g, () => version)
    .replace(versionPlaceholder, (_, options: string) => spell(version, spellingOf(options)));
}

/**
 * Whether {@link renderTag} fills every placeholder of the template: `@{project.groupId}`, a
 * Groovy expression (`${version.replace('.', '_')}`) or a lone `$` would leave the tag unknown.
 */
export function knownTagTemplate(template: string): boolean {
  return !/[@$]\{|\$\w|\{\w+\}/.test(renderTag(template, 'a', '1'));
}

/** Every tag name a release of `version` may carry, the configured (or default) form first. */
export function tagForms(artifactId: string, version: string, configured: string = defaultTagTemplate): string[] {
  const forms = [renderTag(configured, artifactId, version), `${artifactId}-${version}`, `v${version}`, version];
  return [...new Set(forms)];
}

/** The first of `version`'s tag forms present in `tags`, if any. */
export function existingTag(tags: ReadonlySet<string>, artifactId: string, version: string, configured?: string): string | undefined {
  return tagForms(artifactId, version, configured).find((t) => tags.has(t));
}

/**
 * The version a tag names under any of the forms (`demo-1.2.3`, `v1.2.3`, `1.2.3`, or the
 * configured one), as text; undefined for a tag of another shape. The caller parses it.
 */
export function versionInTag(tag: string, artifactId: string, configured: string = defaultTagTemplate): string | undefined {
  return tagVersionReader(artifactId, configured)(tag);
}

/**
 * {@link versionInTag} for many tags: each form is rendered once, not once per tag (a project may
 * have 40,000 tags).
 */
export function tagVersionReader(artifactId: string, configured: string = defaultTagTemplate): (tag: string) => string | undefined {
  const forms: { prefix: string; suffix: string; spelling: VersionSpelling | undefined }[] = [];
  for (const template of new Set([configured, defaultTagTemplate, 'v{version}', '{version}'])) {
    // The marker has no letter or separator, so a spelled placeholder leaves it as is.
    const marker = '\u0000';
    const rendered = renderTag(template, artifactId, marker);
    const at = rendered.indexOf(marker);
    if (at < 0) continue;
    const options = /\{version((?:\|[^|{}]+)*)\}/.exec(template)?.[1] ?? '';
    forms.push({ prefix: rendered.slice(0, at), suffix: rendered.slice(at + 1), spelling: options === '' ? undefined : spellingOf(options) });
  }
  return (tag) => {
    for (const { prefix, suffix, spelling } of forms) {
      if (tag.length > prefix.length + suffix.length && tag.startsWith(prefix) && tag.endsWith(suffix)) {
        const spelled = tag.slice(prefix.length, tag.length - suffix.length);
        const v = spelling === undefined ? spelled : unspell(spelled, spelling);
        if (v !== undefined && /^\d/.test(v)) return v;
      }
    }
    return undefined;
  };
}

/**
 * {@link tagForms} when the artifactId may be unknown (release notes on a bare history): then only
 * the configured, `vX.Y.Z` and `X.Y.Z` forms.
 */
export function releaseTagCandidates(artifactId: string | undefined, version: string, configured?: string): string[] {
  if (artifactId !== undefined) return tagForms(artifactId, version, configured);
  return [...new Set([...(configured === undefined ? [] : [renderTag(configured, '', version)]), `v${version}`, version])];
}

// X.Y.Z, or with a final-release qualifier (`3.30.2-GA`, `4.2.8.Final`, `5.3.1.RELEASE`): a
// pre-release's (`-RC1`, `-M2`, `-beta`) is not a release the notes start from.
const releaseVersion = /^(0|[1-9]\d{0,8})\.(0|[1-9]\d{0,8})\.(0|[1-9]\d{0,8})(?:[.-](?:GA|Final|RELEASE))?$/i;

/**
 * The release version (`X.Y.Z`, or with a final-release qualifier) a tag names in one of the forms,
 * else undefined: snapshot, pre-release and other components' tags are not release tags of this component.
 */
export function releaseTagVersion(tag: string, artifactId: string | undefined, configured?: string): string | undefined {
  const v = versionInTag(tag, artifactId ?? '', configured);
  return v !== undefined && releaseVersion.test(v) ? v : undefined;
}
