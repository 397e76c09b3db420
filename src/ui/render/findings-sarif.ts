import type { CheckReport, Finding } from '../../core/findings.js';
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
  repoRelative,
  type ReportContext,
} from './report-context.js';

export const sarifSchemaUri = 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';
const srcRoot = '%SRCROOT%';

export interface SarifOptions {
  /** False when the run could not finish (an online lookup got no answer: exit 3). */
  executionSuccessful?: boolean;
  /** Why the run could not finish; one error notification. */
  failure?: string;
}

/**
 * SARIF 2.1.0 for code-scanning views (GitHub code scanning, DESIGN §3): one run, one rule per
 * finding code present, one result per finding with a repository-relative location and a
 * fingerprint that survives line shifts; checks that could not run are notes of the invocation.
 */
export function findingsSarif(report: CheckReport, ctx: ReportContext, options: SarifOptions = {}): Record<string, unknown> {
  const codes = [...new Set(report.findings.map((f) => f.code))].sort();
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
            rules: codes.map((code) => rule(code, report.findings.find((f) => f.code === code)!)),
          },
        },
        invocations: [
          {
            executionSuccessful: options.executionSuccessful ?? true,
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

function rule(code: string, first: Finding): Record<string, unknown> {
  const group = groupOf(code);
  const level = first.severity === 'error' ? 'error' : 'warning';
  return {
    id: code,
    name: findingRuleName(code),
    shortDescription: { text: sentence(findingTitle(code)) },
    fullDescription: { text: sentence(`${findingTitle(code)} (relctl ${group ?? 'check'} rule \`${code}\`)`) },
    help: { text: sentence(`Fix: ${first.fix}`), markdown: `**Fix:** ${markdownText(first.fix)}\n\nSee [relctl's finding codes](${findingCodesUri}).` },
    helpUri: findingCodesUri,
    defaultConfiguration: { level },
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
