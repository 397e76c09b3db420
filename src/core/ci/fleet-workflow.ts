/**
 * The fleet workflow `relctl init --fleet` writes (DESIGN §13 Scale) for an organisation's admin
 * repository: weekly and by hand, `fleet list` makes a matrix, one job per repository runs `fleet
 * audit --only NAME --json` and uploads the document, and one job merges them into the dashboard
 * issue (`fleet report --from DIR --issue`). GitHub Actions runs the audits in parallel; each job
 * still fetches the whole fleet, so a repository's parents and attributions are what one local
 * audit says. relctl comes from its own action, as in the other workflows init writes; every value
 * reaches a shell through env, never a ${{ }} inside a script. Pure.
 */
import type { RelctlSourceAnswers } from './answers.js';
import { actionRef, workingDirectory, yamlString } from './github-workflows.js';
import { artifactPath } from './workflow-values.js';

export const fleetWorkflowPath = '.github/workflows/relctl-fleet.yml';

/** The audits at once when the run does not say (a schedule, or the input left as it is). */
export const defaultMaxParallel = 4;
const maxParallelChoices = [1, 2, 4, 8, 16, 32];

/** Each matrix job's artifact: this prefix and OWNER_NAME (an artifact name holds no `/`); the report job downloads these only. */
const artifactPrefix = 'relctl-fleet-audit-';

/** The secret the workflow reads; without it the job's own token serves a fleet of public repositories. */
export const fleetSecrets = [
  {
    name: 'RELCTL_GITHUB_TOKEN',
    what: "a fine-grained personal access token (or a GitHub App's token) with Contents: read on the fleet's repositories and Issues: write on the repository holding the dashboard",
  },
] as const;

/** The token every relctl step gets: the secret when there is one, else the job's own. */
const tokenEnv = ['        env:', '          RELCTL_GITHUB_TOKEN: ${{ secrets.RELCTL_GITHUB_TOKEN || github.token }}'];

export function fleetWorkflow(a: RelctlSourceAnswers, place: { projectDir: string }): string {
  const dir = place.projectDir === '.' ? '' : `${place.projectDir}/`;
  const setup = ['      - uses: actions/checkout@v4', '      - uses: actions/setup-node@v4', '        with:', '          node-version: 20'];
  /** A relctl step; `findings`: its exit 1 means repositories that are not ready, and the job goes on. */
  const relctl = (name: string, id: string, command: string, args: string, findings: boolean): string[] => [
    `      - name: ${name}`,
    `        id: ${id}`,
    `        uses: ${actionRef(a)}`,
    ...(findings ? ['        continue-on-error: true # exit 1 is a repository that is not ready: the report says so; the last step fails on 2 or 3'] : []),
    '        with:',
    `          command: ${command}`,
    `          args: ${args}`,
    ...workingDirectory(place, '          '),
    ...tokenEnv,
  ];
  // Exit 1 (not ready) is the dashboard's news, not the run's failure; 2 (usage) and 3 (GitHub, git) are.
  const failOnError = (id: string): string[] => [
    '      - name: Fail unless relctl said 0 (ready) or 1 (not ready)',
    `        if: steps.${id}.outputs.exit-code != '0' && steps.${id}.outputs.exit-code != '1'`,
    '        env:',
    `          EXIT_CODE: \${{ steps.${id}.outputs.exit-code }}`,
    '        run: |',
    '          echo "::error title=relctl fleet::relctl exited with ${EXIT_CODE:-no code}: a failure, not a finding (see the step above)."',
    '          exit 1',
  ];
  return [
    `# Written by relctl init (relctl ${a.relctlVersion}). The fleet's readiness, weekly and by hand:`,
    '# list the repositories, audit each in a job of its own, keep one dashboard issue here up to date.',
    '# The selection: the "fleet" section of relctl.config.json, or the org input of a manual run.',
    '# The token: the RELCTL_GITHUB_TOKEN secret (a fine-grained token or a GitHub App token that may',
    "# read the fleet's repositories and write issues here); without it, the job's own token, which",
    '# reads public repositories only.',
    'name: relctl fleet',
    '',
    'on:',
    '  schedule:',
    "    - cron: '23 5 * * 1' # Mondays, 05:23 UTC",
    '  workflow_dispatch:',
    '    inputs:',
    // A choice, not a number: a number input is newer than some linters, and a choice cannot be mistyped.
    '      max-parallel:',
    '        description: Repositories audited at once',
    '        type: choice',
    `        options: [${maxParallelChoices.map((n) => `'${n}'`).join(', ')}]`,
    `        default: '${defaultMaxParallel}'`,
    '      org:',
    '        description: An organisation to audit instead of the fleet section of relctl.config.json',
    '        type: string',
    "        default: ''",
    '',
    'concurrency:',
    '  group: relctl-fleet',
    '  cancel-in-progress: false',
    '',
    'permissions:',
    '  contents: read',
    '',
    'env:',
    '  # Words for relctl\'s args (the action splits them on spaces): empty on the schedule.',
    "  FLEET_SELECTION: ${{ inputs.org && format('--org {0}', inputs.org) || '' }}",
    '',
    'jobs:',
    '  list:',
    '    runs-on: ubuntu-latest',
    '    outputs:',
    '      repos: ${{ steps.matrix.outputs.repos }}',
    '    steps:',
    ...setup,
    ...relctl('List the fleet', 'list', 'fleet list', '--json --out relctl-fleet/list.json ${{ env.FLEET_SELECTION }}', false),
    '      - name: One matrix entry per repository',
    '        id: matrix',
    ...workingDirectory(place, '        '),
    '        run: |',
    "          node -e '",
    '            const list = JSON.parse(require("node:fs").readFileSync("relctl-fleet/list.json", "utf8"));',
    `            const repos = list.map((r) => ({ name: r.name, artifact: "${artifactPrefix}" + r.name.replace("/", "_") }));`,
    '            console.log("repos=" + JSON.stringify(repos));',
    "          ' >> \"$GITHUB_OUTPUT\"",
    '',
    '  audit:',
    '    needs: list',
    '    name: audit ${{ matrix.repo.name }}',
    '    runs-on: ubuntu-latest',
    '    strategy:',
    '      fail-fast: false',
    `      max-parallel: \${{ fromJSON(inputs.max-parallel || '${defaultMaxParallel}') }}`,
    '      matrix:',
    '        repo: ${{ fromJSON(needs.list.outputs.repos) }}',
    '    steps:',
    ...setup,
    ...relctl('Audit', 'audit', 'fleet audit', '--only ${{ matrix.repo.name }} --json --out relctl-fleet/${{ matrix.repo.artifact }}.json ${{ env.FLEET_SELECTION }}', true),
    '      - name: Upload the document',
    '        if: always()',
    '        uses: actions/upload-artifact@v4',
    '        with:',
    '          name: ${{ matrix.repo.artifact }}',
    `          path: ${yamlString(`${artifactPath(`${dir}relctl-fleet/`)}\${{ matrix.repo.artifact }}.json`)}`,
    '          if-no-files-found: warn',
    '          retention-days: 7',
    ...failOnError('audit'),
    '',
    '  report:',
    '    needs: [list, audit]',
    "    if: always() && needs.list.result == 'success'",
    '    runs-on: ubuntu-latest',
    '    permissions:',
    '      contents: read',
    "      issues: write # the dashboard issue in this repository (the job's own token)",
    '    steps:',
    ...setup,
    '      - name: Download the documents',
    '        uses: actions/download-artifact@v4',
    '        with:',
    `          pattern: ${artifactPrefix}*`,
    `          path: ${yamlString(artifactPath(`${dir}relctl-fleet-documents`))}`,
    ...relctl('The dashboard issue', 'report', 'fleet report', '--from relctl-fleet-documents --issue ${{ github.repository }} --format html --out relctl-fleet.html', true),
    '      - name: Keep the page',
    '        if: always()',
    '        uses: actions/upload-artifact@v4',
    '        with:',
    '          name: relctl-fleet-report',
    `          path: ${yamlString(artifactPath(`${dir}relctl-fleet.html`))}`,
    '          if-no-files-found: ignore',
    '          retention-days: 30',
    ...failOnError('report'),
    '',
  ].join('\n');
}
