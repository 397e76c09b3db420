import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../helpers/cli.js';
import { createTestKey, type TestKey } from '../helpers/gpg.js';
import { gitlabSchemaErrors, junitSchemaCheck, sarifMultitool, sarifSchemaErrors } from '../helpers/report-validators.js';
import { git, gitRepo, tempDir, type TempDir } from '../helpers/temp.js';
import { sandboxEnv, startSandbox, uploadKey, writeComponent } from './upload-helpers.js';
import type { Finding as JsonFinding } from '../../src/core/findings.js';

/**
 * `--format sarif|junit|gitlab` of preflight and verify, run through the CLI on real projects with
 * findings and checked by the formats' own validators (DESIGN §3, issue 23).
 */
const fixtures = path.resolve(import.meta.dirname, '../fixtures/maven');
const home = path.join(fixtures, 'home');

async function readTree(dir: string, prefix = ''): Promise<Record<string, Buffer>> {
  const files: Record<string, Buffer> = {};
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const rel = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) Object.assign(files, await readTree(path.join(dir, entry.name), rel));
    else files[rel] = await readFile(path.join(dir, entry.name));
  }
  return files;
}

interface SarifLog {
  runs: {
    tool: { driver: { name: string; version: string; rules: { id: string; shortDescription: { text: string }; help: { text: string } }[] } };
    invocations: { executionSuccessful: boolean }[];
    results: {
      ruleId: string;
      ruleIndex: number;
      level: string;
      partialFingerprints: Record<string, string>;
      locations?: { physicalLocation: { artifactLocation: { uri: string; uriBaseId?: string }; region?: { startLine: number } } }[];
    }[];
  }[];
}

let work: TempDir;
/** A repository whose Maven project (the `bad` fixture: errors and warnings) lives in `java/`. */
let repo: string;
let project: string;
const run = (format: string): Promise<CliResult> => runCli(['preflight', '--offline', '--format', format, '--cwd', project], { home });

beforeAll(async () => {
  work = await tempDir('relctl-formats-');
  repo = path.join(work.path, 'repo');
  project = path.join(repo, 'java');
  const files = await readTree(path.join(fixtures, 'projects', 'bad'));
  await gitRepo(repo, work.path, { 'README.md': 'top\n', ...Object.fromEntries(Object.entries(files).map(([k, v]) => [`java/${k}`, v])) });
});
afterAll(async () => {
  await work?.[Symbol.asyncDispose]();
});

describe('relctl preflight --format sarif', () => {
  let json: { findings: JsonFinding[] };
  let first: CliResult;
  let log: SarifLog;
  beforeAll(async () => {
    const j = await runCli(['preflight', '--offline', '--json', '--cwd', project], { home });
    json = JSON.parse(j.stdout) as typeof json;
    first = await run('sarif');
    log = JSON.parse(first.stdout) as SarifLog;
  });

  it('prints one SARIF 2.1.0 document on stdout and keeps the exit code of the findings', () => {
    expect(first.exitCode).toBe(1);
    expect(log).toMatchObject({ version: '2.1.0', runs: [{ tool: { driver: { name: 'relctl' } } }] });
    expect(log.runs[0]!.tool.driver.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('has one rule per finding code (id = code) and one result per finding, each pointing at its rule', () => {
    const driver = log.runs[0]!.tool.driver;
    expect(driver.rules.map((r) => r.id).sort()).toEqual([...new Set(json.findings.map((f) => f.code))].sort());
    expect(log.runs[0]!.results).toHaveLength(json.findings.length);
    for (const r of log.runs[0]!.results) expect(driver.rules[r.ruleIndex]!.id).toBe(r.ruleId);
    const rule = driver.rules.find((r) => r.id === 'missing-pom-metadata')!;
    expect(rule.help.text).toContain(json.findings.find((f) => f.code === 'missing-pom-metadata')!.fix);
  });

  it('gives locations relative to the repository root when --cwd is a subfolder', () => {
    const locations = log.runs[0]!.results.map((r) => r.locations![0]!.physicalLocation);
    expect(locations.every((l) => l.artifactLocation.uri.startsWith('java/') && l.artifactLocation.uriBaseId === '%SRCROOT%')).toBe(true);
    const malformed = log.runs[0]!.results.find((r) => r.ruleId === 'xml-malformed')!;
    expect(malformed.locations![0]!.physicalLocation).toEqual({ artifactLocation: { uri: 'java/broken/pom.xml', uriBaseId: '%SRCROOT%' }, region: { startLine: 5 } });
  });

  it('passes the SARIF 2.1.0 JSON schema and Microsoft’s SARIF validator without errors or warnings', async () => {
    expect(await sarifSchemaErrors(log)).toEqual([]);
    const file = path.join(work.path, 'preflight.sarif');
    await writeFile(file, first.stdout);
    const v = await sarifMultitool(file);
    expect(v.problems, v.output).toEqual([]);
    expect(v.exitCode, v.output).toBe(0);
  });

  it('keeps every fingerprint across runs and across an edit that moves the lines', async () => {
    const prints = (l: SarifLog) => l.runs[0]!.results.map((r) => `${r.ruleId} ${Object.values(r.partialFingerprints).join()}`).sort();
    const again = JSON.parse((await run('sarif')).stdout) as SarifLog;
    expect(prints(again)).toEqual(prints(log));

    // Three comment lines at the top of every POM, committed (so no dirty-worktree finding).
    for (const pom of ['pom.xml', 'lib/pom.xml', 'web/pom.xml', 'orphan/pom.xml']) {
      const file = path.join(project, pom);
      const text = await readFile(file, 'utf8');
      await writeFile(file, text.replace(/(<\?xml[^>]*\?>\s*\n)?/, (head) => `${head}<!-- one -->\n<!-- two -->\n<!-- three -->\n`));
    }
    await git(repo, work.path, 'commit', '-q', '-am', 'comments');
    const moved = JSON.parse((await run('sarif')).stdout) as SarifLog;
    const line = (l: SarifLog, code: string) => l.runs[0]!.results.find((r) => r.ruleId === code)!.locations![0]!.physicalLocation.region!.startLine;
    expect(line(moved, 'missing-pom-metadata')).toBe(line(log, 'missing-pom-metadata') + 3);
    expect(prints(moved)).toEqual(prints(log));
  });
});

describe('relctl preflight --format github in a subfolder project', () => {
  it('names files relative to the repository root, where the runner looks for them', async () => {
    const res = await run('github');
    expect(res.exitCode).toBe(1);
    const annotated = [...res.stdout.matchAll(/^::(?:error|warning|notice) file=([^,:]+)/gm)].map((m) => m[1]!);
    expect(annotated.length).toBeGreaterThan(0);
    for (const file of annotated) expect(file.startsWith('java/')).toBe(true);
  });
});

describe('the format checks themselves', () => {
  it('reject documents that break their format (so a pass above means something)', async () => {
    const broken = { version: '2.1.0', runs: [{ tool: { driver: { name: 'relctl' } }, results: [{ ruleId: 'x', level: 'fatal' }] }] };
    expect(await sarifSchemaErrors(broken)).not.toEqual([]);
    // The validator's exit code is 0 even then: its findings are read from its report.
    const file = path.join(work.path, 'broken.sarif');
    await writeFile(file, JSON.stringify({ version: '2.1.0' }));
    expect((await sarifMultitool(file)).problems).toEqual([expect.objectContaining({ ruleId: 'JSON1002', level: 'error' })]);
    const junit = await junitSchemaCheck('<testsuites><testsuite name="a"><testcase/></testsuite></testsuites>', path.join(work.path, 'broken.xml'));
    expect(junit.exitCode).not.toBe(0);
    const gitlab = await gitlabSchemaErrors([{ description: 'd', check_name: 'c', fingerprint: 'f', severity: 'high', location: { path: 'a' } }]);
    expect(new Set(gitlab.map((e) => e.instancePath))).toEqual(new Set(['/0/severity', '/0/location']));
  });
});

describe('relctl preflight --format junit and --format gitlab', () => {
  it('writes JUnit XML valid against the Jenkins schema: a failing test case per check and module with errors, warnings not failing', async () => {
    const r = await run('junit');
    expect(r.exitCode).toBe(1);
    const check = await junitSchemaCheck(r.stdout, path.join(work.path, 'preflight.xml'));
    expect(check.exitCode, check.output).toBe(0);
    expect(r.stdout).toMatch(/<testcase classname="org\.example\.bad:bad-lib" name="missing-pom-metadata">\s*<failure type="missing-pom-metadata"/);
    expect(r.stdout).toMatch(/<testcase classname="org\.example\.bad:bad-web" name="developers-incomplete">\s*<system-out>warning: web\/pom.xml:\d+: /);
    // A check that ran and found nothing is a passing test case; the skipped groups are absent.
    expect(r.stdout).toContain('<testcase classname="(project)" name="detached-head"/>');
    expect(r.stdout).not.toContain('name="online"');
  });

  it('writes a GitLab code quality report valid against the documented format, paths relative to the repository', async () => {
    const r = await run('gitlab');
    expect(r.exitCode).toBe(1);
    const issues = JSON.parse(r.stdout) as { check_name: string; fingerprint: string; severity: string; location: { path: string } }[];
    expect(await gitlabSchemaErrors(issues)).toEqual([]);
    expect(issues.every((i) => i.location.path.startsWith('java/'))).toBe(true);
    expect(new Set(issues.map((i) => i.fingerprint)).size).toBe(issues.length);
    expect(issues.find((i) => i.check_name === 'packaging-mismatch')!.severity).toBe('critical');
    expect(issues.find((i) => i.check_name === 'developers-incomplete')!.severity).toBe('minor');
  });

  it('reports an audit that could not ask a service (exit 3) as unsuccessful SARIF and an errored JUnit test', async () => {
    const down = 'http://127.0.0.1:9';
    const env = { RELCTL_STAGING_API_URL: down, RELCTL_PORTAL_URL: down, RELCTL_PUBLIC_REPO_URL: down, RELCTL_KEYSERVER_URL: down, RELCTL_SECONDARY_KEYSERVER_URL: down };
    // Online, gpg and the parent cache write into HOME: a scratch one, not the fixture's.
    const home = path.join(work.path, 'home-online');
    await mkdir(home, { recursive: true });
    const sarif = await runCli(['preflight', '--format', 'sarif', '--cwd', project], { home, env });
    expect(sarif.exitCode, sarif.stderr).toBe(3);
    const log = JSON.parse(sarif.stdout) as SarifLog;
    expect(log.runs[0]!.invocations[0]!.executionSuccessful).toBe(false);
    expect(await sarifSchemaErrors(log)).toEqual([]);
    const junit = await runCli(['preflight', '--format', 'junit', '--cwd', project], { home, env });
    expect(junit.exitCode).toBe(3);
    expect(junit.stdout).toContain('<error type="service-unreachable"');
    const check = await junitSchemaCheck(junit.stdout, path.join(work.path, 'unreachable.xml'));
    expect(check.exitCode, check.output).toBe(0);
  });

  it('refuses --json together with a report format (exit 2)', async () => {
    const r = await runCli(['preflight', '--offline', '--json', '--format', 'sarif', '--cwd', project], { home });
    expect(r.exitCode).toBe(2);
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: false, error: { code: 'bad-format' } });
  });
});

describe('relctl verify --format sarif|junit|gitlab|github', () => {
  let sb: Awaited<ReturnType<typeof startSandbox>>;
  let key: TestKey;
  let dir: string;
  beforeAll(async () => {
    sb = await startSandbox();
    key = await createTestKey();
    await uploadKey(sb, key.armoredPublicKey);
    dir = path.join(work.path, 'staging');
    await writeComponent(dir, key, { groupId: 'org.example', artifactId: 'nosources', version: '1.0.0', sources: false });
    await writeComponent(dir, key, { groupId: 'org.example', artifactId: 'fine', version: '1.0.0' });
  });
  afterAll(async () => {
    await sb?.close();
    await key?.cleanup();
  });
  const verify = (format: string) => runCli(['verify', '--dir', dir, '--format', format, '--cwd', work.path], { env: sandboxEnv(sb) });

  it('reports the portal rule failures as valid SARIF, JUnit (one suite per component) and GitLab documents, exit 1', async () => {
    const sarif = await verify('sarif');
    expect(sarif.exitCode, sarif.stderr).toBe(1);
    const log = JSON.parse(sarif.stdout) as SarifLog;
    expect(log.runs[0]!.results.map((r) => r.ruleId)).toEqual(['missing-sources']);
    expect(await sarifSchemaErrors(log)).toEqual([]);
    const file = path.join(work.path, 'verify.sarif');
    await writeFile(file, sarif.stdout);
    const v = await sarifMultitool(file);
    expect(v.problems, v.output).toEqual([]);

    const junit = await verify('junit');
    expect(junit.exitCode).toBe(1);
    const check = await junitSchemaCheck(junit.stdout, path.join(work.path, 'verify.xml'));
    expect(check.exitCode, check.output).toBe(0);
    expect(junit.stdout).toContain('<testsuite name="org.example:fine" tests=');
    expect(junit.stdout).toMatch(/<testcase classname="org\.example:nosources" name="missing-sources">\s*<failure/);
    expect(junit.stdout).toContain('<testcase classname="org.example:fine" name="missing-sources"/>');

    const gitlab = await verify('gitlab');
    expect(gitlab.exitCode).toBe(1);
    expect(await gitlabSchemaErrors(JSON.parse(gitlab.stdout))).toEqual([]);

    // The GitHub Action passes its `format` input (github by default) to verify as to preflight.
    const github = await verify('github');
    expect(github.exitCode).toBe(1);
    expect(github.stdout).toMatch(/^::error::missing-sources: /);
  });
});
