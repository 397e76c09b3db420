/**
 * The GitLab CI jobs `relctl init --ci gitlab` writes (DESIGN §12): the merge-request audit with
 * a code-quality report, and the release as a manual job on the default branch. They use the
 * default stages (test, deploy), so the file can be included into an existing .gitlab-ci.yml
 * without touching its `stages:`.
 */
import { relctlSource, type InitAnswers } from './answers.js';
import { pullRequestArgs, type WorkflowPlace, yamlString } from './github-workflows.js';

/** The name of the jobs file when the project already has a .gitlab-ci.yml of its own. */
export const gitlabIncludeFile = 'relctl.gitlab-ci.yml';

/** The line to add to an existing .gitlab-ci.yml. */
export function gitlabIncludeLine(file: string): string {
  return `include:\n  - local: ${yamlString(`/${file}`)}`;
}

export function gitlabJobs(a: InitAnswers, place: WorkflowPlace): string {
  // Not `npm install --global git+URL`: npm prepares such a clone without its dev tools (npm/cli#8440).
  const { repository, ref } = relctlSource(a);
  const install = `npm install --global --no-audit --no-fund "$(npm pack --silent "git+https://github.com/${repository}.git#${ref}")"`;
  const cwd = place.projectDir === '.' ? '' : ` --cwd ${shellWord(place.projectDir)}`;
  const dir = place.projectDir === '.' ? '' : `${place.projectDir}/`;
  const buildPackages = a.buildTool === 'maven' ? 'openjdk-17-jdk-headless maven' : 'openjdk-17-jdk-headless';
  return [
    `# Written by relctl init (relctl ${a.relctlVersion}).`,
    '# relctl-preflight: the merge-request audit (offline, no secrets), findings in the code quality widget.',
    '# relctl-release: the release, run by hand from the pipeline of the default branch.',
    'relctl-preflight:',
    '  stage: test',
    '  image: node:20',
    '  rules:',
    '    - if: $CI_PIPELINE_SOURCE == "merge_request_event"',
    '    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH',
    '  variables:',
    '    GIT_DEPTH: "0" # tags and history: the repository checks read them',
    '  script:',
    `    - ${install}`,
    `    - relctl preflight${cwd} ${pullRequestArgs} --format gitlab > relctl-code-quality.json || true`,
    `    - relctl preflight${cwd} ${pullRequestArgs}`,
    '  artifacts:',
    '    when: always',
    '    reports:',
    '      codequality: relctl-code-quality.json',
    '',
    'relctl-release:',
    '  stage: deploy',
    '  image: node:20',
    '  rules:',
    '    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH',
    '      when: manual',
    '  resource_group: relctl-release',
    '  variables:',
    '    GIT_DEPTH: "0" # every tag: relctl tells orphan tags from published versions',
    '    GIT_STRATEGY: clone # a fresh clone: a reused working folder could keep a shallow history or a leftover release.properties',
    '    RELCTL_TOKEN_USERNAME: $CENTRAL_TOKEN_USERNAME',
    '    RELCTL_TOKEN_PASSWORD: $CENTRAL_TOKEN_PASSWORD',
    '    RELCTL_GPG_PASSPHRASE: $GPG_PASSPHRASE',
    '    GIT_AUTHOR_NAME: "GitLab CI"',
    '    GIT_AUTHOR_EMAIL: "$GITLAB_USER_EMAIL"',
    '    GIT_COMMITTER_NAME: "GitLab CI"',
    '    GIT_COMMITTER_EMAIL: "$GITLAB_USER_EMAIL"',
    '  before_script:',
    `    - apt-get update -qq && apt-get install -y -qq --no-install-recommends ${buildPackages} gnupg`,
    `    - ${install}`,
    '    # The checkout is a detached HEAD that cannot push: the release commits go to the branch,',
    '    # pushed with a project access token (write_repository).',
    '    - git checkout -B "$CI_COMMIT_BRANCH"',
    '    - git remote set-url origin "https://oauth2:${GITLAB_PUSH_TOKEN}@${CI_SERVER_HOST}/${CI_PROJECT_PATH}.git"',
    "    # maven-release-plugin pushes to the POM's <scm><developerConnection>, not to origin: SSH or",
    '    # plain HTTPS addresses of this host go through the same token.',
    '    - git config --global url."https://oauth2:${GITLAB_PUSH_TOKEN}@${CI_SERVER_HOST}/".insteadOf "git@${CI_SERVER_HOST}:"',
    '    - git config --global --add url."https://oauth2:${GITLAB_PUSH_TOKEN}@${CI_SERVER_HOST}/".insteadOf "ssh://git@${CI_SERVER_HOST}/"',
    '    - git config --global --add url."https://oauth2:${GITLAB_PUSH_TOKEN}@${CI_SERVER_HOST}/".insteadOf "https://${CI_SERVER_HOST}/"',
    '  script:',
    '    # GPG_PRIVATE_KEY is a File variable (several lines cannot be masked): its value is a path.',
    `    - RELCTL_GPG_PRIVATE_KEY="$(cat "$GPG_PRIVATE_KEY")" relctl release${cwd} --yes`,
    '  artifacts:',
    '    when: on_failure',
    '    name: relctl-journal',
    '    paths:',
    `      - ${dir}.relctl/`,
    `      - ${dir}release.properties`,
    '    expire_in: 30 days',
    '',
  ].join('\n');
}

/** A folder name as one shell word (single quotes; a quote inside is closed, escaped, reopened). */
function shellWord(value: string): string {
  return /^[\w./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}
