import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Ajv, type ErrorObject } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { execa } from 'execa';
import { repoRoot } from './cli.js';

/**
 * Checks of relctl's CI report formats against their published definitions (the vendored
 * schemas in test/fixtures/formats, see its README) and Microsoft's SARIF validator.
 */
const formats = path.join(repoRoot, 'test/fixtures/formats');
// ajv-formats is CommonJS: its default export arrives as the module object under NodeNext.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (ajv: Ajv | Ajv2020) => void;

async function schema(name: string): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(path.join(formats, name), 'utf8')) as Record<string, unknown>;
}

/** JSON-schema errors of a SARIF log against the SARIF 2.1.0 schema (empty: valid). */
export async function sarifSchemaErrors(doc: unknown): Promise<ErrorObject[]> {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const validate = ajv.compile(await schema('sarif-schema-2.1.0.json'));
  return validate(doc) ? [] : (validate.errors ?? []);
}

/** JSON-schema errors of a GitLab code quality report against the documented format. */
export async function gitlabSchemaErrors(doc: unknown): Promise<ErrorObject[]> {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  const validate = ajv.compile(await schema('gitlab-codequality.schema.json'));
  return validate(doc) ? [] : (validate.errors ?? []);
}

/** JSON-schema errors of a `relctl fleet audit --json` document against relctl's own schema/fleet.schema.json. */
export async function fleetSchemaErrors(doc: unknown): Promise<ErrorObject[]> {
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
  const validate = ajv.compile(JSON.parse(await readFile(path.join(repoRoot, 'schema/fleet.schema.json'), 'utf8')) as Record<string, unknown>);
  return validate(doc) ? [] : (validate.errors ?? []);
}

export interface SarifValidation {
  exitCode: number;
  /** The validator's own errors and warnings about the file (its notes are style advice). */
  problems: { ruleId: string; level: string; message: unknown }[];
  output: string;
}

/**
 * Microsoft's SARIF validator (`sarif-multitool validate`, npm @microsoft/sarif-multitool) on a
 * file; its report, itself SARIF, is read from `--output`.
 */
export async function sarifMultitool(file: string): Promise<SarifValidation> {
  const out = `${file}.validation.sarif`;
  const r = await execa(path.join(repoRoot, 'node_modules/.bin/sarif-multitool'), ['validate', '--level', 'Error', 'Warning', '--output', out, file], {
    reject: false,
    timeout: 120_000,
    env: { DOTNET_CLI_TELEMETRY_OPTOUT: '1' },
  });
  const log = JSON.parse(await readFile(out, 'utf8')) as { runs: { results?: { ruleId: string; level?: string; message: unknown }[] }[] };
  const problems = log.runs
    .flatMap((run) => run.results ?? [])
    .filter((x) => (x.level ?? 'warning') !== 'note' && x.level !== 'none')
    .map((x) => ({ ruleId: x.ruleId, level: x.level ?? 'warning', message: x.message }));
  return { exitCode: r.exitCode ?? -1, problems, output: `${String(r.stdout)}\n${String(r.stderr)}` };
}

/** `xmllint --schema` with Jenkins' JUnit XSD (libxml2-utils; scripts/system-deps.sh --formats). */
export async function junitSchemaCheck(xml: string, file: string): Promise<{ exitCode: number; output: string }> {
  await writeFile(file, xml);
  const r = await execa('xmllint', ['--noout', '--schema', path.join(formats, 'junit-10.xsd'), file], { reject: false });
  return { exitCode: r.exitCode ?? -1, output: `${String(r.stdout)}\n${String(r.stderr)}` };
}
