import type { CheckReport, Finding } from '../../core/findings.js';
import type { FindingRules, RuleLevel } from '../../core/finding-rules.js';
import { groupOf } from '../../core/finding-groups.js';
import { findingRuleName, findingTitle } from '../../core/finding-titles.js';
import {
  displayedFile,
  absolutePath,
  fileUri,
  findingCodesUri,
  findingFingerprints,
  fingerprintKey,
  pathToUriReference,
  relctlHomepage,
  type ReportContext,
} from './report-context.js';
import { repoRelative } from './repo-relative.js';

export const sarifSchemaUri = 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';
const srcRoot = '%SRCROOT%';

export interface SarifOptions {
  /** False when the run could not finish (an online lookup got no answer: exit 3). */
  executionSuccessful?: boolean;
  /** Why the run could not finish; one error notification. */
  failure?: string;
  /** The project's finding rules (relctl.config.json `rules`): each one is a rule configuration override. */
  rules?: FindingRules;
}

/**
 * SARIF 2.1.0 for code-scanning views (GitHub code scanning, DESIGN §3): one run, one rule per
 * finding code present, one result per finding with a repository-relative location and a
 * fingerprint that survives line shifts; checks that could not run are notes of the invocation.
 */
export function findingsSarif(report: CheckReport, ctx: ReportContext, options: SarifOptions = {}): Record<string, unknown> {
  // The rules the project configured are described too (an `off` one has no result to carry it).
  const configured = options.rules ?? {};
  const codes = [...new Set([...report.findings.map((f) => f.code), ...Object.keys(configured)])].sort();
  const ruleIndex = new Map(codes.map((c, i) => [c, i]));
  const fingerprints = findingFingerprints(ctx, report.findings);
  const results = report.findings.map((f, i) => result(f, ruleIndex.get(f.code) ?? 0, fingerprints[i]!, ctx));
  const notifications = (report.skipped ?? []).map((s) => ({
    level: 'note',
    message: { text: sentence(`Not checked: ${s.check}${s.module === undefined ? '' : ` (${s.module})`}: ${s.why}`) },
    descriptor: { id: s.check },
  }));
  if (options.failure !== undefined) notifications.push({ level: 'error', message: { text: sentence(options.failure) }, descriptor: { id: 'service-unreachable' } });
  return {
    $schema: sarifSchemaUri,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'relctl',
            version: ctx.version,
            semanticVersion: ctx.version,
            informationUri: relctlHomepage,
            rules: codes.map((code) => rule(code, report.findings.find((f) => f.code === code), configured[code])),
          },
        },
        invocations: [
          {
            executionSuccessful: options.executionSuccessful ?? true,
            ...(Object.keys(configured).length === 0
              ? {}
              : {
                  ruleConfigurationOverrides: Object.entries(configured).map(([id, level]) => ({
                    descriptor: { id, index: ruleIndex.get(id) },
                    configuration: configurationOf(level),
                  })),
                }),
            ...(notifications.length === 0 ? {} : { toolExecutionNotifications: notifications }),
          },
        ],
        originalUriBaseIds: { [srcRoot]: { uri: fileUri(withSlash(ctx.repoRoot)) } },
        columnKind: 'utf16CodeUnits',
        results,
      },
    ],
  };
}

/** SARIF's reportingConfiguration of a project rule: `off` is a disabled rule at level none. */
function configurationOf(level: RuleLevel): Record<string, unknown> {
  return level === 'off' ? { enabled: false, level: 'none' } : { enabled: true, level };
}

function rule(code: string, first: Finding | undefined, configured: RuleLevel | undefined): Record<string, unknown> {
  const group = groupOf(code);
  const fix = first === undefined ? undefined : first.fix;
  const help =
    fix === undefined
      ? { text: sentence(`See relctl's finding codes: ${findingCodesUri}`), markdown: `See [relctl's finding codes](${findingCodesUri}).` }
      : { text: sentence(`Fix: ${fix}`), markdown: `**Fix:** ${markdownText(fix)}\n\nSee [relctl's finding codes](${findingCodesUri}).` };
  // The level this run reports the code at: the project's rule when it set one, else the finding's own.
  const defaultConfiguration = configured !== undefined ? configurationOf(configured) : { level: first?.severity === 'error' ? 'error' : 'warning' };
  return {
    id: code,
    name: findingRuleName(code),
    shortDescription: { text: sentence(findingTitle(code)) },
    fullDescription: { text: sentence(`${findingTitle(code)} (relctl ${group ?? 'check'} rule \`${code}\`)`) },
    help,
    helpUri: findingCodesUri,
    defaultConfiguration,
    properties: { tags: ['relctl', ...(group === undefined ? [] : [group])] },
  };
}

function result(f: Finding, index: number, fingerprint: string, ctx: ReportContext): Record<string, unknown> {
  const shown = displayedFile(ctx, f);
  const location = shown === undefined ? undefined : physicalLocation(ctx, shown.file, shown.line ?? (f.file === undefined ? 1 : undefined));
  return {
    ruleId: f.code,
    ruleIndex: index,
    level: f.severity === 'error' ? 'error' : 'warning',
    message: { text: sentence(`${sentence(f.message)} Fix: ${f.fix}`) },
    ...(location === undefined ? {} : { locations: [{ physicalLocation: location }] }),
    partialFingerprints: { [fingerprintKey]: fingerprint },
    ...(f.module === undefined ? {} : { properties: { module: f.module } }),
  };
}

function physicalLocation(ctx: ReportContext, projectFile: string, line: number | undefined): Record<string, unknown> {
  const rel = repoRelative(ctx, projectFile);
  // A file outside the repository (verify --dir elsewhere) keeps an absolute URI.
  const artifactLocation = rel === undefined ? { uri: fileUri(absolutePath(ctx, projectFile)) } : { uri: pathToUriReference(rel), uriBaseId: srcRoot };
  return { artifactLocation, ...(line === undefined ? {} : { region: { startLine: line } }) };
}

/** Literal text in Markdown: `<developer>` must not read as an HTML tag. */
function markdownText(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** SARIF's validator asks for messages that end like sentences. */
function sentence(s: string): string {
  const t = s.trim();
  return /[.!?]$/.test(t) ? t : `${t}.`;
}

function withSlash(p: string): string {
  return p.endsWith('/') ? p : `${p}/`;
}
