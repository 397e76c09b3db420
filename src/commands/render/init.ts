import { ciSecrets, secretsWhere, type InitAnswers } from '../../core/ci/answers.js';
import { gitlabIncludeFile, gitlabIncludeLine } from '../../core/ci/gitlab-ci.js';
import { fleetSecrets } from '../../core/ci/fleet-workflow.js';
import type { FileOutcome } from '../../core/ci/init-files.js';
import { reportTitle } from '../../fleet/render/fleet-rows.js';
import type { Style } from '../../ui/style.js';

const statusWord = (o: FileOutcome, dryRun: boolean): string => {
  if (o.status === 'written') return dryRun ? (o.replaced ? 'would replace' : 'would write') : o.replaced ? 'replaced' : 'written';
  return o.status === 'not-written' ? 'not written' : o.status;
};

/** Each file's fate (the files themselves first, on --dry-run). */
function fileLines(outcomes: readonly FileOutcome[], dryRun: boolean, c: Style): string[] {
  const lines: string[] = [];
  if (dryRun) {
    for (const o of outcomes) lines.push(c.bold(`--- ${o.path} (${statusWord(o, true)})`), o.text);
  }
  const width = Math.max(...outcomes.map((o) => statusWord(o, dryRun).length));
  for (const o of outcomes) lines.push(`${statusWord(o, dryRun).padEnd(width)}  ${o.path}`);
  return lines;
}

function secretLines(heading: string, secrets: readonly { name: string; what: string }[], where: string): string[] {
  const nameWidth = Math.max(...secrets.map((s) => s.name.length));
  return ['', heading, ...secrets.map((s) => `  ${s.name.padEnd(nameWidth)}  ${s.what}`), `Where: ${where}`];
}

const filesJson = (outcomes: readonly FileOutcome[], dryRun: boolean): Record<string, unknown>[] =>
  outcomes.map((o) => ({ path: o.path, status: o.status, replaced: o.replaced, ...(dryRun ? { text: o.text } : {}) }));

/** The text result: each file's fate (the files themselves on --dry-run), the secrets, what next. */
export function initText(a: InitAnswers, outcomes: readonly FileOutcome[], dryRun: boolean, c: Style): string {
  const lines = fileLines(outcomes, dryRun, c);
  if (outcomes.some((o) => o.status === 'refused')) return lines.join('\n');
  lines.push(...secretLines('Create these secrets for the release:', ciSecrets, secretsWhere(a.ci)));
  if (outcomes.some((o) => o.path === gitlabIncludeFile)) {
    lines.push('', `The project has its own .gitlab-ci.yml, left as it is: add these lines to it to run relctl's jobs:`, gitlabIncludeLine(gitlabIncludeFile));
  }
  lines.push(
    '',
    a.ci === 'github'
      ? 'Then commit the files: pull requests run relctl preflight; Actions → relctl release → Run workflow releases.'
      : 'Then commit the files: merge requests run relctl preflight; the default branch pipeline has a manual relctl-release job.',
  );
  return lines.join('\n');
}

/** `--json`: the answers, each file with its status (and text on --dry-run), the secrets. */
export function initJson(a: InitAnswers, outcomes: readonly FileOutcome[], dryRun: boolean): Record<string, unknown> {
  return {
    ok: true,
    dryRun,
    ci: a.ci,
    buildTool: a.buildTool,
    route: a.route,
    ...(a.namespace === undefined ? {} : { namespace: a.namespace }),
    files: filesJson(outcomes, dryRun),
    secrets: ciSecrets.map((s) => ({ name: s.name, what: s.what })),
    secretsWhere: secretsWhere(a.ci),
    ...(outcomes.some((o) => o.path === gitlabIncludeFile) ? { include: gitlabIncludeLine(gitlabIncludeFile) } : {}),
  };
}

/** `init --fleet`'s text result: the files, the token's secret, what next. */
export function fleetInitText(outcomes: readonly FileOutcome[], dryRun: boolean, c: Style): string {
  const lines = fileLines(outcomes, dryRun, c);
  if (outcomes.some((o) => o.status === 'refused')) return lines.join('\n');
  lines.push(...secretLines("Create this secret when the fleet has private repositories (the job's own token reads public ones only):", fleetSecrets, secretsWhere('github')));
  lines.push('', `Then commit the files: the workflow runs every Monday (Actions → relctl fleet → Run workflow runs it now) and keeps the issue "${reportTitle}" of this repository up to date.`);
  return lines.join('\n');
}

/** `init --fleet --json`: each file with its status (and text on --dry-run), the secret. */
export function fleetInitJson(outcomes: readonly FileOutcome[], dryRun: boolean): Record<string, unknown> {
  return { ok: true, dryRun, fleet: true, files: filesJson(outcomes, dryRun), secrets: fleetSecrets.map((s) => ({ name: s.name, what: s.what })), secretsWhere: secretsWhere('github') };
}
