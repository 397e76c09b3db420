import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { sarifMultitool, sarifSchemaErrors } from '../helpers/report-validators.js';
import { tempDir, writeTree } from '../helpers/temp.js';

/**
 * Findings controlled as ESLint users expect (DESIGN §3, issue 29 item 6): `rules` in
 * relctl.config.json, `--max-warnings N`, `--quiet`, for preflight (plain and --fix) and verify.
 */

// One error (missing-developers) and two warnings (published-repositories, plugin-version-missing).
const pom = `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>org.example</groupId>
  <artifactId>demo</artifactId>
  <version>1.0.0-SNAPSHOT</version>
  <name>demo</name>
  <description>demo</description>
  <url>https://example.org</url>
  <licenses><license><name>Apache-2.0</name><url>https://www.apache.org/licenses/LICENSE-2.0</url></license></licenses>
  <scm><url>https://example.org/scm</url><connection>scm:git:https://example.org/x.git</connection></scm>
  <repositories><repository><id>x</id><url>https://repo.example.org/m2</url></repository></repositories>
  <distributionManagement><repository><id>central</id><url>https://ossrh-staging-api.central.sonatype.com/service/local/staging/deploy/maven2/</url></repository></distributionManagement>
  <build><plugins><plugin><artifactId>maven-jar-plugin</artifactId></plugin></plugins></build>
</project>
`;

interface Doc {
  ok: boolean;
  findings: { code: string; severity: string }[];
  error?: { code: string; message: string };
}

async function project(rules?: unknown): Promise<{ path: string } & AsyncDisposable> {
  const dir = await tempDir('relctl-rules-');
  await writeTree(dir.path, { 'pom.xml': pom, ...(rules === undefined ? {} : { 'relctl.config.json': JSON.stringify({ rules }, null, 2) }) });
  return dir;
}

async function preflight(dir: string, ...args: string[]): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  return runCli(['preflight', '--offline', '--only', 'descriptors', '--cwd', dir, ...args], { home: dir });
}

function parse(stdout: string): Doc {
  return JSON.parse(stdout) as Doc;
}

describe('rules in relctl.config.json', () => {
  it('turns a code off, lowers an error to a warning and raises a warning to an error, in every format', async () => {
    await using dir = await project({ 'missing-developers': 'warning', 'published-repositories': 'off', 'plugin-version-missing': 'error' });
    const json = await preflight(dir.path, '--json');
    expect(json.exitCode, json.stderr).toBe(1);
    const doc = parse(json.stdout);
    expect(doc.findings.map((f) => `${f.code} ${f.severity}`).sort()).toEqual(['missing-developers warning', 'plugin-version-missing error']);

    const text = await preflight(dir.path);
    expect(text.stdout).toMatch(/warning missing-developers/);
    expect(text.stdout).toMatch(/error\s+plugin-version-missing/);
    expect(text.stdout).not.toContain('published-repositories');

    const github = await preflight(dir.path, '--format', 'github');
    expect(github.stdout).toContain('::warning file=pom.xml,line=5::missing-developers');
    expect(github.stdout).not.toContain('published-repositories');

    const gitlab = JSON.parse((await preflight(dir.path, '--format', 'gitlab')).stdout) as { check_name: string; severity: string }[];
    expect(gitlab.map((i) => i.check_name).sort()).toEqual(['missing-developers', 'plugin-version-missing']);
    expect(gitlab.find((i) => i.check_name === 'plugin-version-missing')!.severity).toBe('critical');

    // JUnit fails a test case for errors only: the raised code fails, the lowered one does not.
    const junit = (await preflight(dir.path, '--format', 'junit')).stdout;
    expect(junit).toContain('<failure type="plugin-version-missing"');
    expect(junit).not.toContain('<failure type="missing-developers"');
  });

  it("describes the project's rules in SARIF: rule defaultConfiguration and the invocation's ruleConfigurationOverrides", async () => {
    await using dir = await project({ 'missing-developers': 'warning', 'published-repositories': 'off' });
    const r = await preflight(dir.path, '--format', 'sarif');
    // The only error was lowered to a warning: the run passes.
    expect(r.exitCode, r.stderr).toBe(0);
    const sarif = JSON.parse(r.stdout) as {
      runs: { tool: { driver: { rules: { id: string; defaultConfiguration: Record<string, unknown> }[] } }; invocations: { ruleConfigurationOverrides?: unknown[] }[]; results: { ruleId: string; level: string }[] }[];
    };
    const run = sarif.runs[0]!;
    const rules = run.tool.driver.rules;
    expect(rules.find((x) => x.id === 'missing-developers')!.defaultConfiguration).toEqual({ enabled: true, level: 'warning' });
    expect(rules.find((x) => x.id === 'published-repositories')!.defaultConfiguration).toEqual({ enabled: false, level: 'none' });
    expect(run.results.map((x) => `${x.ruleId} ${x.level}`).sort()).toEqual(['missing-developers warning', 'plugin-version-missing warning']);
    expect(run.invocations[0]!.ruleConfigurationOverrides).toEqual([
      { descriptor: { id: 'missing-developers', index: rules.findIndex((x) => x.id === 'missing-developers') }, configuration: { enabled: true, level: 'warning' } },
      { descriptor: { id: 'published-repositories', index: rules.findIndex((x) => x.id === 'published-repositories') }, configuration: { enabled: false, level: 'none' } },
    ]);
    expect(await sarifSchemaErrors(sarif)).toEqual([]);
    const file = path.join(dir.path, 'report.sarif');
    await writeFile(file, r.stdout);
    const validation = await sarifMultitool(file);
    expect(validation.problems, validation.output).toEqual([]);
  }, 180_000);

  it('is a configuration error (exit 2) naming the unknown code or level and the file', async () => {
    await using unknown = await project({ 'missing-developer': 'off' });
    const a = await preflight(unknown.path);
    expect(a.exitCode).toBe(2);
    expect(a.stderr).toContain('relctl.config.json');
    expect(a.stderr).toContain('"missing-developer"');
    await using level = await project({ 'missing-developers': 'warn' });
    const b = await preflight(level.path, '--json');
    expect(b.exitCode).toBe(2);
    expect(parse(b.stdout).error!.message).toMatch(/relctl\.config\.json.*"missing-developers".*"warn"/);
  });

  it('is reported with --verbose', async () => {
    await using dir = await project({ 'published-repositories': 'off' });
    const r = await preflight(dir.path, '--verbose');
    expect(r.stderr).toContain('rules (relctl.config.json): published-repositories off');
  });

  it('applies to what preflight --fix plans and to its final audit', async () => {
    await using dir = await project({ 'missing-developers': 'off' });
    const r = await preflight(dir.path, '--fix', '--dry-run', '--json');
    const doc = parse(r.stdout);
    expect(doc.findings.map((f) => f.code)).not.toContain('missing-developers');
    expect(r.exitCode, r.stderr).toBe(0);
  });
});

describe('--max-warnings and --quiet', () => {
  it('--max-warnings N fails (exit 1) only above N, with its own error in --json', async () => {
    await using dir = await project({ 'missing-developers': 'off' });
    expect((await preflight(dir.path, '--max-warnings', '2')).exitCode).toBe(0);
    const over = await preflight(dir.path, '--max-warnings', '1', '--json');
    expect(over.exitCode).toBe(1);
    const doc = parse(over.stdout);
    expect(doc.ok).toBe(false);
    expect(doc.error!.code).toBe('too-many-warnings');
    const text = await preflight(dir.path, '--max-warnings', '0');
    expect(text.exitCode).toBe(1);
    expect(text.stderr).toContain('2 warnings found, more than --max-warnings 0 allows.');
  });

  it('--max-warnings takes a non-negative whole number only (exit 2)', async () => {
    await using dir = await project();
    for (const bad of ['-1', 'x', '1.5']) {
      const r = await preflight(dir.path, `--max-warnings=${bad}`);
      expect(r.exitCode, bad).toBe(2);
      expect(r.stderr, bad).toContain('is not a whole number of 0 or more');
    }
  });

  it('--quiet prints errors only, and the hidden warnings still count for --max-warnings', async () => {
    await using dir = await project();
    const quiet = parse((await preflight(dir.path, '--quiet', '--json')).stdout);
    expect(quiet.findings.map((f) => f.code)).toEqual(['missing-developers']);
    const text = await preflight(dir.path, '--quiet');
    expect(text.stdout).not.toContain('plugin-version-missing');
    await using clean = await project({ 'missing-developers': 'off' });
    const counted = await preflight(clean.path, '--quiet', '--max-warnings', '1', '--json');
    expect(counted.exitCode).toBe(1);
    expect(parse(counted.stdout).findings).toEqual([]);
  });

  it('verify takes them too', async () => {
    await using dir = await project();
    const bad = await runCli(['verify', '--cwd', dir.path, '--max-warnings', 'many'], { home: dir.path });
    expect(bad.exitCode).toBe(2);
    const help = await runCli(['verify', '--help']);
    expect(help.stdout).toContain('--max-warnings <n>');
    expect(help.stdout).toContain('--quiet');
  });
});
