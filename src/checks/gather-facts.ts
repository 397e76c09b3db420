import { stat } from 'node:fs/promises';
import { descriptorText } from '../io/descriptor.js';
import os from 'node:os';
import path from 'node:path';
import { UsageError } from '../core/errors.js';
import type { ProjectFacts, ReleaseFacts } from './facts.js';
import type { SkippedCheck } from '../core/findings.js';
import type { OnlineSections, SigningKeyFacts } from '../keys/online-types.js';
import { detectBuildTool } from '../io/build-tool.js';
import type { CommandContext } from '../io/command-context.js';
import { parseVersion, planRelease, releaseTagName, releaseVersionOf, formatVersion } from '../core/version.js';
import { gitFactsFor, type GitFacts } from '../io/git.js';
import { detectRoute } from './route.js';
import { existingTag, knownTagTemplate } from '../core/tag-forms.js';
import { chooseTagTemplate } from '../core/tag-format-inference.js';
import { ParentSource, parentCacheDir } from '../io/parent-cache.js';
import type { PreferredParents } from '../build-tools/maven/load.js';
import { describeVerdict, publishedVerdict } from '../io/published.js';
import { readJournal } from '../io/journal.js';
import { localDay } from '../core/post-release/notice-rule.js';
import { clockNow } from '../io/clock.js';

export interface GatherOptions {
  offline: boolean;
  /** The online group is not selected (`--skip online`): no portal or key-server lookups. */
  skipOnlineChecks?: boolean;
  /** Read the signing key's format (preflight with the signing group selected; not rehearse or the release chain). */
  readSigningKey?: boolean;
  /** git's answers when the command started git itself, earlier (gitFactsFor). */
  git?: Promise<GitFacts>;
  /** Parents read before the local repository: the fleet's own (DESIGN §13). */
  preferredParents?: PreferredParents;
}

async function isFile(p: string): Promise<boolean> {
  return (await stat(p).catch(() => undefined))?.isFile() === true;
}

/** All I/O of preflight, done once. Each build tool's gatherer fills its own section. */
export async function gatherFacts(ctx: CommandContext, options: GatherOptions): Promise<ProjectFacts> {
  // git runs in a child process: start it before anything else so it overlaps with reading the
  // build files (on a large reactor its status walk is the last thing preflight waits for).
  const git = options.git ?? gitFactsFor(ctx);
  // Offline, the signing key comes from the local keyring (a gpg child): started now as well.
  const offlineKey = options.readSigningKey === true && (options.offline || options.skipOnlineChecks === true) ? localKey(ctx) : undefined;
  const buildTool = await detectBuildTool(ctx.cwd).catch(async (error: unknown) => {
    await Promise.all([git, offlineKey]); // no child left running behind a usage error
    throw error;
  });
  const facts: ProjectFacts = { root: ctx.cwd, buildTool, gatherFindings: [], portalUrl: ctx.config.portalUrl };
  if (buildTool === 'maven') {
    const { gatherMavenFacts } = await import('../build-tools/maven/gather.js');
    const home = ctx.env.HOME ?? os.homedir();
    // Parents found nowhere else come from relctl's own cache; online, missing ones are fetched into it.
    const parents = new ParentSource({
      cacheDir: parentCacheDir(ctx.env, home),
      ...(options.offline ? {} : { publicRepoUrl: ctx.config.publicRepoUrl }),
      timeoutMs: ctx.config.timeout * 1000,
      env: ctx.env,
      signal: ctx.signal,
      log: (line) => ctx.out.verbose(line),
    });
    const maven = await gatherMavenFacts(ctx.cwd, {
      parentFallback: (ref) => parents.find(ref),
      ...(options.offline ? {} : { publicRepoUrl: ctx.config.publicRepoUrl }),
      ...(ctx.config.settings === undefined ? {} : { settingsFile: ctx.config.settings }),
      ...(ctx.config.localRepo === undefined ? {} : { localRepo: ctx.config.localRepo }),
      env: ctx.env,
      home: ctx.env.HOME ?? os.homedir(),
      stagingApiUrl: ctx.config.stagingApiUrl,
      ...(options.preferredParents === undefined ? {} : { preferredParents: options.preferredParents }),
    });
    await parents.close();
    if (parents.unreachable.length > 0) facts.unreachable = [...parents.unreachable];
    facts.maven = maven.facts;
    // Settings credentials are portal tokens: mask them in anything relctl prints from here on,
    // with every other secret the files hold (a password without a username, a passphrase).
    for (const file of [maven.facts.settings, ...(maven.facts.settings.alternatives ?? [])]) {
      for (const s of file.servers) if (s.username !== undefined && s.password !== undefined) ctx.out.redactor.addToken(s.username, s.password);
      ctx.out.redactor.add(...(file.secrets ?? []));
    }
    facts.gatherFindings.push(...maven.findings);
    facts.release = { ...facts.release, ...maven.release };
  }
  if (buildTool === 'gradle') {
    const { gatherGradleFacts } = await import('../build-tools/gradle/gather.js');
    const g = await gatherGradleFacts(ctx.cwd, { env: ctx.env, home: ctx.env.HOME ?? os.homedir(), stagingApiUrl: ctx.config.stagingApiUrl });
    facts.gradle = g.facts;
    facts.gatherFindings.push(...g.findings);
    facts.release = { ...facts.release, ...g.release, ...(g.tagTemplate === undefined ? {} : { tagTemplate: g.tagTemplate }) };
    for (const note of g.notes) ctx.out.warn(note);
  }
  const jreleaser = jreleaserDeployers(ctx.cwd);
  if (jreleaser.mavenCentral !== undefined) facts.jreleaserFile = jreleaser.mavenCentral;
  if (jreleaser.nexus2 !== undefined) facts.jreleaserNexus2File = jreleaser.nexus2;
  facts.route = detectRoute(facts);
  facts.git = await git;
  if (!facts.git.isRepository) {
    // Not an error: an exported source tree can be audited too; say what was not checked.
    const why = facts.git.unavailable ?? `${ctx.cwd} is not inside a git repository`;
    skip(facts, ...['dirty-worktree', 'detached-head', 'orphan-tag'].map((check) => ({ check, why })));
  }
  if (facts.release !== undefined) await completeRelease(facts.release, facts.git, ctx, options);
  if (ctx.config.mail !== undefined) {
    const journal = await readJournal(ctx.cwd);
    facts.notice = {
      notices: journal.notices ?? [],
      today: localDay(clockNow(ctx.env)),
      requiredWorkingDays: ctx.config.mail.noticeWorkingDays ?? 2,
    };
  }
  if (!options.offline && options.skipOnlineChecks !== true) {
    // Portal and key-server facts (issue 4): concurrent and time-bounded inside.
    const { gatherOnlineFacts } = await import('../keys/online-facts.js');
    const groupId = facts.release?.groupId;
    facts.online = { ...(await gatherOnlineFacts(ctx, groupId === undefined ? {} : { groupId })) };
  }
  if (options.readSigningKey === true) {
    // The key as served when it was looked up online, else the one in the local keyring.
    const { servedSigningKey } = await import('../keys/local-key-format.js');
    const key = facts.online === undefined ? await (offlineKey ?? localKey(ctx)) : servedSigningKey((facts.online as OnlineSections).keys);
    if (key !== undefined) facts.signingKey = key;
  }
  return facts;
}

/** The signing key's facts from the local keyring; never rejects (no key is no facts). */
async function localKey(ctx: CommandContext): Promise<SigningKeyFacts | undefined> {
  const { localSigningKey } = await import('../keys/local-key-format.js');
  return localSigningKey(ctx).catch(() => undefined);
}

function skip(facts: ProjectFacts, ...skipped: SkippedCheck[]): void {
  facts.gatherSkipped = [...(facts.gatherSkipped ?? []), ...skipped];
}

/**
 * Without a format relctl can fill, the project's own tags may show it (`rel_3_30_2_ga` for
 * `3.30.2-GA`); --verbose says what was learned, or why nothing was.
 */
function learnTagFormat(release: ReleaseFacts, tags: readonly string[], version: string, ctx: CommandContext): void {
  const choice = chooseTagTemplate(release.tagTemplate, tags, [version], release.artifactId);
  if (choice.note !== undefined) ctx.out.verbose(choice.note);
  if (choice.learned === undefined || choice.template === undefined) return;
  release.tagTemplate = choice.template;
  release.tagTemplateLearned = true;
}

/**
 * `jreleaser.yml` (or .yaml, .toml, .json) in the root, each read once: the first that configures
 * the `mavenCentral` deployer, and the first that configures the `nexus2` one (the Nexus 2 staging
 * API) with the first `url` written after it (YAML `url:`, TOML `url =`, JSON `"url":`). Read as
 * descriptors: a FIFO or a huge file by that name is skipped, never waited on.
 */
function jreleaserDeployers(root: string): { mavenCentral?: { file: string; line: number }; nexus2?: { file: string; line: number; url?: string } } {
  const found: ReturnType<typeof jreleaserDeployers> = {};
  const lineOf = (lines: string[], word: RegExp): number => lines.findIndex((l) => word.test(l) && !/^\s*#/.test(l));
  for (const name of ['jreleaser.yml', 'jreleaser.yaml', 'jreleaser.toml', 'jreleaser.json']) {
    if (found.mavenCentral !== undefined && found.nexus2 !== undefined) break;
    const text = descriptorText(path.join(root, name), 1024 * 1024);
    if (text === undefined) continue;
    const lines = text.split(/\r?\n/);
    const central = found.mavenCentral === undefined ? lineOf(lines, /mavenCentral/) : -1;
    if (central >= 0) found.mavenCentral = { file: name, line: central + 1 };
    const at = found.nexus2 === undefined ? lineOf(lines, /nexus2/) : -1;
    if (at < 0) continue;
    const url = lines
      .slice(at + 1)
      .map((l) => /^\s*"?url"?\s*[:=]\s*["']?([^"'\s,]+)/.exec(l)?.[1])
      .find((u) => u !== undefined);
    found.nexus2 = { file: name, line: at + 1, ...(url === undefined ? {} : { url }) };
  }
  return found;
}

// Orphan chains longer than this are not a release history, they are a bug somewhere else.
const maxProbes = 10;

/**
 * Adds the release tag, whether it exists, and (online) whether each tagged release version is
 * in the public repository, which the orphan-tag rule needs.
 */
async function completeRelease(release: ReleaseFacts, git: GitFacts, ctx: CommandContext, options: GatherOptions): Promise<void> {
  const text = release.currentVersion?.trim();
  if (text === undefined || text === '' || text.includes('${') || release.artifactId === undefined) return;
  if (git.isRepository) learnTagFormat(release, git.tags, text, ctx);
  if (release.tagTemplate !== undefined && !knownTagTemplate(release.tagTemplate)) {
    release.tagTemplateUnknown = true;
    return;
  }
  const current = parseVersion(text);
  // A shape the release plan does not count (`1.7.22-8-SNAPSHOT`, `2.0.0-RC1-jre-SNAPSHOT`) still
  // names its release version and tag; only the next version is left to the maintainer.
  const releaseText = current === undefined ? text.replace(/-SNAPSHOT$/, '') : formatVersion(releaseVersionOf(current));
  const artifactId = release.artifactId;
  release.releaseTag = releaseTagName(artifactId, releaseText, release.tagTemplate);
  if (!git.isRepository) return;
  const tags = new Set(git.tags);
  // Any of the tag forms (v1.2.3, 1.2.3, demo-1.2.3, the configured one) counts as the release tag.
  release.releaseTagExists = existingTag(tags, artifactId, releaseText, release.tagTemplate) !== undefined;
  if (!release.releaseTagExists) return;
  if (options.offline) {
    release.publishedUnknownReason = '--offline';
    return;
  }
  if (release.groupId === undefined) {
    release.publishedUnknownReason = 'the group id is not declared';
    return;
  }
  const published: Record<string, boolean> = {};
  for (let i = 0; i < maxProbes; i++) {
    // Probe the first tagged version whose publication is still unknown, if any; a shape the plan
    // does not count has one such version, its own (the orphan rule reads the answer).
    const version =
      current === undefined
        ? i === 0 ? releaseText : undefined
        : planRelease({ current, artifactId, ...(release.tagTemplate === undefined ? {} : { tagTemplate: release.tagTemplate }), existingTags: tags, published }).skipped.find((s) => s.published === undefined)?.version;
    if (version === undefined) break;
    const answer = await publishedVerdict(ctx, { groupId: release.groupId, artifactId, version });
    ctx.out.verbose(`${answer.url}: ${describeVerdict(answer)}`);
    if (answer.published === undefined) {
      release.publishedUnknownReason = `${answer.url}: ${answer.reason}`;
      break;
    }
    published[version] = answer.published;
    (release.publishedSources ??= {})[version] = answer.source;
  }
  release.publishedVersions = published;
  if (published[releaseText] !== undefined) release.releaseVersionPublished = published[releaseText];
}
