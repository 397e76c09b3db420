/**
 * The two GitHub Actions workflows `relctl init` writes (DESIGN §12), as text: the pull-request
 * audit with code scanning, and the release started by hand. Both use relctl's own action
 * (action.yml) at the version that wrote them. Every value that reaches a shell goes through the
 * action's inputs and env, never a ${{ }} inside a script (GitHub's script-injection advice).
 */
import { relctlSource, type InitAnswers, type RelctlSourceAnswers } from './answers.js';
import { artifactPath, branchFilter } from './workflow-values.js';

export interface WorkflowPlace {
  /** The project folder relative to the repository root ('.' when they are the same). */
  projectDir: string;
  /** The branch code scanning compares pull requests with. */
  defaultBranch: string;
}

/** The pull-request recipe of docs/commands.md (preflight's "Groups and CI recipes"): no secrets in pull requests, so offline and no credential or signing checks. */
export const pullRequestArgs = '--offline --skip credentials signing';

const bot = { name: 'github-actions[bot]', email: '41898282+github-actions[bot]@users.noreply.github.com' };

export function actionRef(a: RelctlSourceAnswers): string {
  const { repository, ref } = relctlSource(a);
  return `${repository}@${ref}`;
}

/**
 * `working-directory:` for the action, only when the project is not the repository root. The
 * folder holds no `${{` (init refuses one, workflow-values.ts): quoted, it means itself.
 */
export function workingDirectory(place: Pick<WorkflowPlace, 'projectDir'>, indent: string): string[] {
  return place.projectDir === '.' ? [] : [`${indent}working-directory: ${yamlString(place.projectDir)}`];
}

export function preflightWorkflow(a: InitAnswers, place: WorkflowPlace): string {
  const step = (extra: string[]): string[] => [
    `        uses: ${actionRef(a)}`,
    ...extra,
    '        with:',
    '          command: preflight',
    `          args: ${pullRequestArgs}`,
    ...workingDirectory(place, '          '),
  ];
  return [
    `# Written by relctl init (relctl ${a.relctlVersion}). The pull-request audit: offline, no secrets.`,
    '# Findings show as annotations on the pull request and, through SARIF, in code scanning.',
    'name: relctl preflight',
    '',
    'on:',
    '  pull_request:',
    '  push:',
    // A filter pattern: `!main` would exclude, `a+b` would match `aab`; escaped, it is the branch.
    `    branches: [${yamlString(branchFilter(place.defaultBranch))}]`,
    '',
    'permissions:',
    '  contents: read',
    '',
    'jobs:',
    '  preflight:',
    '    runs-on: ubuntu-latest',
    '    permissions:',
    '      contents: read',
    '      actions: read # the SARIF upload reads its workflow run (private repositories)',
    '      security-events: write # upload the SARIF file to code scanning',
    '    steps:',
    '      - uses: actions/checkout@v4',
    '        with:',
    '          fetch-depth: 0 # tags and history: the repository checks read them',
    '      - uses: actions/setup-node@v4',
    '        with:',
    '          node-version: 20',
    '      - name: Preflight (SARIF for code scanning)',
    '        id: sarif',
    ...step(['        continue-on-error: true # the next steps report the findings']),
    '          format: sarif',
    '      - name: Upload to code scanning',
    "        if: always() && steps.sarif.outputs.sarif-file != ''",
    '        uses: github/codeql-action/upload-sarif@v3',
    '        # Private repositories without code scanning and pull requests from forks cannot upload.',
    '        continue-on-error: true',
    '        with:',
    '          sarif_file: ${{ steps.sarif.outputs.sarif-file }}',
    '          category: relctl-preflight',
    '      - name: Preflight',
    ...step([]),
    '',
  ].join('\n');
}

export function releaseWorkflow(a: InitAnswers, place: WorkflowPlace): string {
  const dir = place.projectDir === '.' ? '' : `${place.projectDir}/`;
  return [
    `# Written by relctl init (relctl ${a.relctlVersion}). The release, started by hand:`,
    '# Actions → relctl release → Run workflow, on the branch to release from.',
    '# Not on a tag push: relctl release makes the release commits and the tag itself (the',
    `# build tool's release), then ${routeSentence(a)}.`,
    'name: relctl release',
    '',
    'on:',
    '  workflow_dispatch:',
    '',
    'concurrency:',
    '  group: relctl-release',
    '  cancel-in-progress: false',
    '',
    'permissions:',
    '  contents: read',
    '',
    'jobs:',
    '  release:',
    '    runs-on: ubuntu-latest',
    '    permissions:',
    '      contents: write # push the release commits and the tag',
    '    steps:',
    '      - uses: actions/checkout@v4',
    '        with:',
    '          fetch-depth: 0 # every tag: relctl tells orphan tags from published versions',
    '      - uses: actions/setup-java@v4',
    '        with:',
    '          distribution: temurin',
    '          java-version: 17 # the JDK your build needs',
    `          cache: ${a.buildTool}`,
    '      - uses: actions/setup-node@v4',
    '        with:',
    '          node-version: 20',
    // maven-release-plugin pushes to the POM's <scm><developerConnection>, not to origin: an SSH
    // address there would need a key the job does not have, so it goes through the checkout's HTTPS
    // credentials instead.
    '      - name: Push over HTTPS (the release plugin pushes to <scm><developerConnection>)',
    '        run: |',
    '          git config --global url."https://github.com/".insteadOf "git@github.com:"',
    '          git config --global --add url."https://github.com/".insteadOf "ssh://git@github.com/"',
    '      - name: Release',
    `        uses: ${actionRef(a)}`,
    '        with:',
    '          command: release',
    '          args: --yes',
    ...workingDirectory(place, '          '),
    '        env:',
    '          RELCTL_TOKEN_USERNAME: ${{ secrets.CENTRAL_TOKEN_USERNAME }}',
    '          RELCTL_TOKEN_PASSWORD: ${{ secrets.CENTRAL_TOKEN_PASSWORD }}',
    '          RELCTL_GPG_PRIVATE_KEY: ${{ secrets.GPG_PRIVATE_KEY }}',
    '          RELCTL_GPG_PASSPHRASE: ${{ secrets.GPG_PASSPHRASE }}',
    `          GIT_AUTHOR_NAME: ${yamlString(bot.name)}`,
    `          GIT_AUTHOR_EMAIL: ${yamlString(bot.email)}`,
    `          GIT_COMMITTER_NAME: ${yamlString(bot.name)}`,
    `          GIT_COMMITTER_EMAIL: ${yamlString(bot.email)}`,
    // release.properties too: a resume after release:prepare finished runs release:perform from it.
    '      - name: Keep the journal (download it into the project, then relctl release --resume)',
    '        if: failure()',
    '        uses: actions/upload-artifact@v4',
    '        with:',
    '          name: relctl-journal',
    '          path: |',
    `            ${artifactPath(`${dir}.relctl/`)}`,
    `            ${artifactPath(`${dir}release.properties`)}`,
    '          include-hidden-files: true',
    '          if-no-files-found: ignore',
    '          retention-days: 30',
    '',
  ].join('\n');
}

/** A YAML double-quoted scalar (JSON's string syntax is valid YAML). */
export function yamlString(value: string): string {
  return JSON.stringify(value);
}

/** How the release reaches the portal on the answered route, for the workflow's opening comment. */
function routeSentence(a: InitAnswers): string {
  if (a.route === 'staging-api') return `uploads to the namespace ${a.namespace ?? `holding ${a.groupId ?? 'the groupId in relctl.config.json'}`} through the staging API`;
  if (a.route === 'nexus-staging') return "lets nexus-staging-maven-plugin stage and close through the Nexus 2 staging API, after relctl's verify";
  return 'uploads the bundle through the Publisher API';
}
