/**
 * Release tag forms (DESIGN §4): a release of `X.Y.Z` may have been tagged `<artifactId>-X.Y.Z`
 * (the Maven release plugin's default and relctl's), `vX.Y.Z`, `X.Y.Z`, or in the build's own
 * configured format. Preflight (orphan-tag) and the release chain's version decision both look
 * tags up through this one module. Pure.
 */

/** relctl's tag template (DESIGN §6); `{artifactId}` and `{version}` are replaced. */
export const defaultTagTemplate = '{artifactId}-{version}';

/**
 * Renders a tag template. Besides relctl's `{artifactId}`/`{version}` it understands the Gradle
 * release plugin's `$version`, `${version}`, `$name`, `${name}` and the Maven release plugin's
 * `tagNameFormat` (`@{project.artifactId}`, `@{project.version}`, `@{version}`), so a template
 * read from a build file can be used as is.
 */
export function renderTag(template: string, artifactId: string, version: string): string {
  return template
    .replace(/\{artifactId\}|@\{(?:project\.)?artifactId\}|\$\{name\}|\$name\b/g, () => artifactId)
    .replace(/\{version\}|@\{(?:project\.)?version\}|\$\{version\}|\$version\b/g, () => version);
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
  for (const template of new Set([configured, defaultTagTemplate, 'v{version}', '{version}'])) {
    const marker = '\u0000';
    const rendered = renderTag(template, artifactId, marker);
    const at = rendered.indexOf(marker);
    if (at < 0) continue;
    const prefix = rendered.slice(0, at);
    const suffix = rendered.slice(at + 1);
    if (tag.length > prefix.length + suffix.length && tag.startsWith(prefix) && tag.endsWith(suffix)) {
      const v = tag.slice(prefix.length, tag.length - suffix.length);
      if (/^\d/.test(v)) return v;
    }
  }
  return undefined;
}

/**
 * {@link tagForms} when the artifactId may be unknown (release notes on a bare history): then only
 * the configured, `vX.Y.Z` and `X.Y.Z` forms.
 */
export function releaseTagCandidates(artifactId: string | undefined, version: string, configured?: string): string[] {
  if (artifactId !== undefined) return tagForms(artifactId, version, configured);
  return [...new Set([...(configured === undefined ? [] : [renderTag(configured, '', version)]), `v${version}`, version])];
}

const releaseVersion = /^(0|[1-9]\d{0,8})\.(0|[1-9]\d{0,8})\.(0|[1-9]\d{0,8})$/;

/**
 * The release version (`X.Y.Z` only) a tag names in one of the forms, else undefined: snapshot,
 * qualifier and other components' tags are not release tags of this component.
 */
export function releaseTagVersion(tag: string, artifactId: string | undefined, configured?: string): string | undefined {
  const v = versionInTag(tag, artifactId ?? '', configured);
  return v !== undefined && releaseVersion.test(v) ? v : undefined;
}
