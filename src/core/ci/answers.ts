/**
 * What `relctl init` needs to know (DESIGN §12): the CI host, the build tool, the publishing route
 * the release takes and the namespace. Pure: the command gathers the answers (flags, the project,
 * a prompt) and the generators in this folder turn them into file text.
 */
import type { BuildTool } from '../build-tool.js';
import { browseUrlOf } from '../remote-url.js';

export const ciHosts = ['github', 'gitlab'] as const;
export type CiHost = (typeof ciHosts)[number];

/**
 * The routes `relctl release` takes to Maven Central (DESIGN §4). The build decides the route
 * on every run (preflight reads it from the POMs or build scripts), so it is not a config key: init
 * uses it only to decide whether the namespace is required (the staging API's upload call names it).
 */
export const releaseRoutes = ['staging-api', 'portal-plugin', 'nexus-staging'] as const;
export type ReleaseRoute = (typeof releaseRoutes)[number];

/** What a repository shows about its CI host: its origin remote and the CI files it already has. */
export interface CiHostEvidence {
  originUrl?: string;
  hasGitlabCi: boolean;
  hasGithubWorkflows: boolean;
}

/**
 * The CI host a repository shows, and why. Judged by the origin's host alone (a GitLab repository
 * named "github-mirror" is on GitLab), and said without the remote's credentials: an
 * https://user:token@host/... origin is common, and the token must not reach stderr (DESIGN §2).
 */
export function ciHostOf(evidence: CiHostEvidence): { host: CiHost; why: string } | undefined {
  const shown = browseUrlOf(evidence.originUrl);
  const host = shown === undefined ? '' : new URL(shown).hostname;
  if (/github/i.test(host)) return { host: 'github', why: `origin is ${shown}` };
  if (/gitlab/i.test(host)) return { host: 'gitlab', why: `origin is ${shown}` };
  if (evidence.hasGitlabCi) return { host: 'gitlab', why: 'the repository has a .gitlab-ci.yml' };
  if (evidence.hasGithubWorkflows) return { host: 'github', why: 'the repository has .github/workflows' };
  return undefined;
}

export interface InitAnswers {
  ci: CiHost;
  buildTool: BuildTool;
  route: ReleaseRoute;
  /** The portal namespace, when named (flag, config or answer); written to relctl.config.json as `namespace`. */
  namespace?: string;
  /** Else the project's groupId, written as `groupId`: the portal commands find the namespace holding it. */
  groupId?: string;
  /** The relctl version writing the files: the workflows use the action of the same version. */
  relctlVersion: string;
  /** `--repository OWNER/NAME`: relctl's action and package from a fork (default relctl/relctl). */
  repository?: string;
  /** `--ref REF`: a tag, branch or pinned commit SHA of it (default v<relctlVersion>). */
  ref?: string;
}

/** What says where the written CI files take relctl from (the fleet workflow has no other answer). */
export type RelctlSourceAnswers = Pick<InitAnswers, 'relctlVersion' | 'repository' | 'ref'>;

/** Where the written CI files take relctl from: `OWNER/NAME` and the ref after `@` (or `#`). */
export function relctlSource(a: RelctlSourceAnswers): { repository: string; ref: string } {
  return { repository: a.repository ?? relctlRepository, ref: a.ref ?? `v${a.relctlVersion}` };
}

/** The GitHub repository of relctl and its action (action.yml at its root). */
export const relctlRepository = 'relctl/relctl';

/** The `$schema` of a written relctl.config.json: the schema shipped at that version's tag. */
export function configSchemaUrl(version: string): string {
  return `https://raw.githubusercontent.com/${relctlRepository}/v${version}/schema/relctl.config.schema.json`;
}

/** The secrets a CI release needs, by the names the generated workflows read. */
export const ciSecrets = [
  { name: 'CENTRAL_TOKEN_USERNAME', what: 'the user token name generated in the Central Publisher Portal (its /usertoken page → Generate User Token, with a name and an expiry)' },
  { name: 'CENTRAL_TOKEN_PASSWORD', what: 'the user token password from the same page' },
  { name: 'GPG_PRIVATE_KEY', what: 'the armored signing key: gpg --armor --export-secret-keys FINGERPRINT' },
  { name: 'GPG_PASSPHRASE', what: "the signing key's passphrase" },
] as const;

/** Where a maintainer creates those secrets, per host. */
export function secretsWhere(ci: CiHost): string {
  return ci === 'github'
    ? 'GitHub, the repository → Settings → Secrets and variables → Actions → New repository secret.'
    : 'GitLab, the project → Settings → CI/CD → Variables → Add variable: Protected (only protected branches and tags see it) and Masked; GPG_PRIVATE_KEY is several lines, so make it a File variable (Protected, not maskable), and add GITLAB_PUSH_TOKEN (a project access token with write_repository) for the release pushes.';
}
