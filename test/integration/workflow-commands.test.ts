/**
 * Issue 37 item 3 (DESIGN §3): under GITHUB_ACTIONS the runner reads relctl's output for workflow
 * commands. A developer's name, a module entry or a module folder holding a line break and
 * `::error title=X::Y` / `::add-mask::x` must not become one in any format; `--format github`
 * keeps its own annotations, each one line, with the values escaped inside them.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../helpers/cli.js';
import { gitRepo, tempDir, type TempDir } from '../helpers/temp.js';

interface Command {
  name: string;
  properties: string;
  data: string;
}

/**
 * The commands GitHub's runner would read in `text` (actions/runner ActionCommand): a line that,
 * trimmed at the start, begins with `::` and holds a second `::`; else `##[name]` anywhere in it.
 * Lines are split as .NET's ReadLine splits them (CR, LF, CRLF).
 */
function workflowCommands(text: string): Command[] {
  const out: Command[] = [];
  for (const line of text.split(/\r\n|\r|\n/)) {
    const t = line.trimStart();
    const end = t.startsWith('::') ? t.indexOf('::', 2) : -1;
    if (end > 0) {
      const info = t.slice(2, end);
      const space = info.indexOf(' ');
      // Any name counts here, registered with the runner or not: no line may even look like one.
      out.push({ name: space < 0 ? info : info.slice(0, space), properties: space < 0 ? '' : info.slice(space + 1), data: t.slice(end + 2) });
      continue;
    }
    const legacy = line.indexOf('##[');
    const close = legacy < 0 ? -1 : line.indexOf(']', legacy);
    const name = close > 0 ? line.slice(legacy + 3, close).split(' ')[0]! : '';
    // Every command the runner registers is named so (error, add-mask, stop-commands, ...).
    if (/^[a-z-]+$/i.test(name)) out.push({ name, properties: '', data: line.slice(close + 1) });
  }
  return out;
}

const unescapeData = (s: string): string => s.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%');

const pom = (artifactId: string, inside: string): string => `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>org.example.gha</groupId>
  <artifactId>${artifactId}</artifactId>
  <version>1.0.0-SNAPSHOT</version>
${inside}
</project>
`;

// A developer's name with U+2028, which plain text turns into a line break; legacy `##[error]` in
// another; one over two lines, the second a workflow command and a context line of the --fix diff.
const developers = `  <developers>
    <developer><name>Ann\u2028::add-mask::x</name></developer>
    <developer><name>Bob ##[error]legacy</name></developer>
    <developer><name>Jane
::error title=X::Y</name></developer>
  </developers>
  <distributionManagement>
    <repository><id>central</id><url>https://oss.sonatype.org/service/local/staging/deploy/maven2/</url></repository>
  </distributionManagement>`;
// Module folders: one with a line break, one whose name is a command (a message starts with it).
const brokenFolder = 'sub\n::warning title=W::folder';
const commandFolder = '::error title=F::folder';

let work: TempDir;
let project: string;
let home: string;

beforeAll(async () => {
  work = await tempDir('relctl-gha-');
  project = path.join(work.path, 'project');
  home = path.join(work.path, 'home');
  await mkdir(path.join(home, '.m2'), { recursive: true });
  const modules = `  <packaging>pom</packaging>
  <modules><module>${brokenFolder}</module><module>${commandFolder}</module><module>missing
::add-mask::y</module></modules>`;
  await gitRepo(project, home, {
    'pom.xml': pom('gha', `${modules}\n${developers}`),
    [`${brokenFolder}/pom.xml`]: pom('broken', developers),
    [`${commandFolder}/pom.xml`]: pom('command', ''),
  });
}, 60_000);
afterAll(async () => {
  await work?.[Symbol.asyncDispose]();
});

async function preflight(...args: string[]): Promise<CliResult> {
  return runCli(['preflight', '--offline', '--skip', 'credentials', 'signing', ...args, '--cwd', project], { home, env: { GITHUB_ACTIONS: 'true' } });
}

describe('under GITHUB_ACTIONS no value from a file becomes a workflow command', () => {
  it('text, --json, SARIF, JUnit, GitLab: no line is a command, and each quoted value stays on its line', async () => {
    for (const format of [[], ['--json'], ['--format', 'sarif'], ['--format', 'junit'], ['--format', 'gitlab']]) {
      const r = await preflight(...format);
      const shown = `${r.stdout}\n${r.stderr}`;
      expect(shown, format.join(' ')).toContain('developers-incomplete');
      expect(workflowCommands(shown), `${format.join(' ')}:\n${shown}`).toEqual([]);
    }
    const text = (await preflight()).stdout;
    // The name, the module entry and the folder each on the line that quotes them.
    expect(text).toContain('The developer Jane ::error title=X::Y (declared in pom.xml)');
    expect(text).toContain('The module "missing ::add-mask::y" listed in pom.xml does not exist.');
    expect(text).toContain('sub ::warning title=W::folder/pom.xml');
  }, 120_000);

  it('--format github: only relctl\'s own annotations, one line each, the values escaped inside them', async () => {
    const json = JSON.parse((await preflight('--json')).stdout) as { findings: unknown[]; skipped: unknown[] };
    const r = await preflight('--format', 'github');
    const commands = workflowCommands(`${r.stdout}\n${r.stderr}`);
    // The route notice, one annotation per finding, one notice per skipped check: nothing else.
    expect(commands).toHaveLength(1 + json.findings.length + json.skipped.length);
    for (const c of commands) {
      expect(['error', 'warning', 'notice']).toContain(c.name);
      // Properties are relctl's (file, line): an injected `title=` never gets there.
      for (const p of c.properties.split(',').filter((x) => x !== '')) expect(p, c.properties).toMatch(/^(file|line)=/);
    }
    const data = commands.map((c) => unescapeData(c.data));
    expect(data).toContainEqual(expect.stringContaining('The developer Jane ::error title=X::Y'));
    expect(data).toContainEqual(expect.stringContaining('The developer Ann ::add-mask::x'));
    // A file name with a line break is escaped in the file property, and names the real file.
    const files = commands.map((c) => /(?:^|,)file=([^,]*)/.exec(c.properties)?.[1]).filter((f) => f !== undefined);
    expect(files).toContain('sub%0A%3A%3Awarning title=W%3A%3Afolder/pom.xml');
  }, 120_000);

  it('preflight --fix --dry-run: a diff context line from the POM that reads as a command is made inert', async () => {
    for (const mode of [[], ['--json']]) {
      const r = await preflight('--fix', '--dry-run', ...mode);
      const shown = `${r.stdout}\n${r.stderr}`;
      expect(shown, mode.join(' ')).toContain('ossrh-staging-api.central.sonatype.com');
      expect(workflowCommands(shown), `${mode.join(' ')}:\n${shown}`).toEqual([]);
    }
  }, 120_000);
});
