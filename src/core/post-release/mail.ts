/**
 * The notices of seed part 4.8 step 4, composed from the release's facts. Pure: transport (SMTP
 * or .eml files) and the journal are adapters' business.
 */
export type NoticeKind = 'prerelease' | 'announce';

export interface ReleaseFacts {
  groupId: string;
  artifactId: string;
  version: string;
  previous?: string;
  /** Release notes as Markdown or plain text. */
  notes: string;
  /** Browse link of the version in the public repository. */
  repositoryUrl: string;
  /** Where the release can be downloaded: "Maven Central", or the public repository's host. */
  publishedOn: string;
  /** Release page on the repository host, when known. */
  releaseUrl?: string;
}

export interface MailLists {
  from: string;
  dev: readonly string[];
  user: readonly string[];
  announce: readonly string[];
}

export interface MailMessage {
  kind: NoticeKind;
  from: string;
  to: string[];
  subject: string;
  text: string;
}

const coordinates = (r: ReleaseFacts): string => `${r.groupId}:${r.artifactId}:${r.version}`;

// The hosts of the real Central repository (and its portal): only these may be called "Maven Central".
const centralHosts = new Set(['repo1.maven.org', 'repo.maven.apache.org', 'central.sonatype.com']);

/**
 * The name the notices give the public repository: "Maven Central" only when it is the real
 * one; a sandbox, a staging host or a mirror is named by its host, so a rehearsal's mail never
 * claims a release reached Central.
 */
export function publicRepositoryName(publicRepoUrl: string): string {
  let url: URL;
  try {
    url = new URL(publicRepoUrl);
  } catch {
    return publicRepoUrl;
  }
  return centralHosts.has(url.hostname.toLowerCase()) ? 'Maven Central' : url.host;
}

function indentNotes(notes: string): string {
  const trimmed = notes.trim();
  return trimmed === '' ? '(no notable changes recorded)' : trimmed;
}

/** The pre-release notice: developer list, a couple of working days before (`plannedDate`). */
export function prereleaseMail(r: ReleaseFacts, lists: MailLists, plannedDate: string): MailMessage {
  const since = r.previous === undefined ? '' : ` since ${r.previous}`;
  return {
    kind: 'prerelease',
    from: lists.from,
    to: [...lists.dev],
    subject: `[pre-release] ${r.artifactId} ${r.version} planned for ${plannedDate}`,
    text: [
      'Hello,',
      '',
      `we plan to release ${r.artifactId} ${r.version} (${coordinates(r)}) on or after ${plannedDate}.`,
      `Changes${since}:`,
      '',
      indentNotes(r.notes),
      '',
      'If something should go into this release or wait for the next one, please reply on this list before then.',
      '',
    ].join('\n'),
  };
}

/** The announcement: developer and user lists, plus the announcement list when configured. */
export function announceMail(r: ReleaseFacts, lists: MailLists, releaseDate: string): MailMessage {
  const links = [`${r.publishedOn}: ${r.repositoryUrl}`, ...(r.releaseUrl === undefined ? [] : [`Release notes: ${r.releaseUrl}`])];
  return {
    kind: 'announce',
    from: lists.from,
    to: [...new Set([...lists.dev, ...lists.user, ...lists.announce])],
    subject: `[ANN] ${r.artifactId} ${r.version} released`,
    text: [
      'Hello,',
      '',
      `${r.artifactId} ${r.version} was released on ${releaseDate} and is on ${r.publishedOn}:`,
      '',
      `    <dependency>`,
      `      <groupId>${r.groupId}</groupId>`,
      `      <artifactId>${r.artifactId}</artifactId>`,
      `      <version>${r.version}</version>`,
      `    </dependency>`,
      '',
      ...links,
      '',
      `What changed${r.previous === undefined ? '' : ` since ${r.previous}`}:`,
      '',
      indentNotes(r.notes),
      '',
    ].join('\n'),
  };
}

export const socialLimit = 280;

/**
 * A post for the project's social account: at most 280 characters, the link always whole.
 * Highlights are the notes' first entries, dropped from the end until the post fits.
 */
export function socialPost(r: ReleaseFacts): string {
  const link = r.releaseUrl ?? r.repositoryUrl;
  const head = `${r.artifactId} ${r.version} is out on ${r.publishedOn}.`;
  const entries = r.notes
    .split('\n')
    .map((l) => /^\s*[-*]\s+(.*)$/.exec(l)?.[1]?.trim())
    .filter((e): e is string => e !== undefined && e !== '')
    .map((e) => e.replace(/\s*\(?\[?[0-9a-f]{7,40}\]?(\([^)]*\))?\)?\s*$/, '').replace(/\*\*/g, ''));
  const fit = (parts: string[]): string => [head, ...parts, link].join(' ');
  const highlights: string[] = [];
  for (const e of entries.slice(0, 3)) {
    const candidate = [...highlights, `${highlights.length === 0 ? 'New: ' : ''}${e};`];
    if (fit(candidate).length <= socialLimit) highlights.push(candidate[candidate.length - 1]!);
    else break;
  }
  if (highlights.length > 0) highlights[highlights.length - 1] = highlights[highlights.length - 1]!.replace(/;$/, '.');
  const post = fit(highlights);
  // Only a very long artifact name or link can still overflow: shorten the head, never the link.
  return post.length <= socialLimit ? post : `${head.slice(0, socialLimit - link.length - 2)}… ${link}`;
}
