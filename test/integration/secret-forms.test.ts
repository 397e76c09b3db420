/**
 * Issue 37 item 4 (DESIGN §3): secrets are found by parsing, in any XML form (comments, CDATA,
 * spaces in tags, a password with `"` or `\`, a server without a username), and masked before
 * serialising, the same in text and in every document format. A canary in each form, in the
 * settings file (`--settings`) and the POM, next to what `--fix` edits so the diff shows the lines.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { gitRepo, tempDir, type TempDir } from '../helpers/temp.js';

const canary = {
  commentNoUser: 'CanaryFormCommentNoUser1',
  quoteBackslash: 'CanaryForm"Quote\\Slash2',
  spacedPassphrase: 'CanaryFormSpacedPass3',
  comment: 'CanaryFormComment4',
  cdataNoUser: 'CanaryFormCdataNoUser5',
  bareNoUser: 'CanaryFormBareNoUser6',
  pomSpaced: 'CanaryFormPomSpaced7',
  pomComment: 'CanaryFormPomComment8',
  pomCdata: 'CanaryFormPomCdata9',
};
// What a leak of each would show: the value as written, and JSON's escaping of the one with `"` and `\`.
const leaks = [...Object.values(canary), JSON.stringify(canary.quoteBackslash).slice(1, -1), 'CanaryForm'];

// The legacy server the fix renames, with three servers on each side (a diff's context lines).
// Two of the passwords turn up in the POM too, where findings quote them (a developer's name, a
// module entry): the redactor masks them there, one without a username, one with `"` and `\`
// that --json escapes.
const settings = `<?xml version="1.0" encoding="UTF-8"?>
<settings>
  <servers>
    <server><id>a</id><password><!--no username-->${canary.commentNoUser}</password></server>
    <server><id>b</id><username>deployer-b</username><password><!--c-->${canary.quoteBackslash}</password></server>
    <server><id>c</id><username>u</username><passphrase >${canary.spacedPassphrase}</passphrase ></server>
    <server><id>ossrh</id><username>deployer</username><password><!--c-->${canary.comment}</password></server>
    <server><id>d</id><password><![CDATA[${canary.cdataNoUser}]]></password></server>
    <server><id>e</id><password>${canary.bareNoUser}</password></server>
    <server><id>f</id><username>u</username><password>\${env.UNSET_FOR_THIS_TEST}</password></server>
  </servers>
</settings>
`;

const pom = `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>org.example.forms</groupId>
  <artifactId>forms</artifactId>
  <packaging>pom</packaging>
  <modules><module>${canary.quoteBackslash}</module></modules>
  <developers><developer><name>${canary.bareNoUser}</name></developer></developers>
  <version>1.0.0-SNAPSHOT</version>
  <properties><gpg.passphrase >${canary.pomSpaced}</gpg.passphrase ><sonatypeToken><!--x-->${canary.pomComment}</sonatypeToken><signing.password><![CDATA[${canary.pomCdata}]]></signing.password></properties>
  <distributionManagement>
    <repository><id>ossrh</id><url>https://oss.sonatype.org/service/local/staging/deploy/maven2/</url></repository>
  </distributionManagement>
</project>
`;

let work: TempDir;
let project: string;
let home: string;
let settingsFile: string;

beforeAll(async () => {
  work = await tempDir('relctl-secret-forms-');
  project = path.join(work.path, 'project');
  home = path.join(work.path, 'home');
  // In the Maven home, where --fix may edit it (so the diff shows its lines).
  settingsFile = path.join(home, '.m2', 'settings.xml');
  await mkdir(path.dirname(settingsFile), { recursive: true });
  await writeFile(settingsFile, settings);
  await gitRepo(project, home, { 'pom.xml': pom });
}, 60_000);
afterAll(async () => {
  await work?.[Symbol.asyncDispose]();
});

describe('a secret in any XML form never shows', () => {
  it('in preflight text, --json, --verbose, every report format and the --fix --dry-run diff', async () => {
    const runs = [[], ['--json'], ['--verbose'], ['--format', 'github'], ['--format', 'sarif'], ['--format', 'junit'], ['--format', 'gitlab'], ['--fix', '--dry-run'], ['--fix', '--dry-run', '--json']];
    for (const args of runs) {
      const r = await runCli(['preflight', '--offline', '--skip', 'signing', '--settings', settingsFile, ...args, '--cwd', project], { home });
      const where = `preflight ${args.join(' ')}`;
      expect(r.stdout, where).toContain('legacy-staging');
      if (!args.includes('--fix')) {
        expect(r.stdout, where).toMatch(/The developer \*\*\* \(declared in pom\.xml\)/);
        expect(r.stdout, where).toMatch(/The module \\?"\*\*\*\\?" listed in pom\.xml/);
      }
      for (const leak of leaks) {
        expect(r.stdout.includes(leak), `${where} stdout shows ${leak}`).toBe(false);
        expect(r.stderr.includes(leak), `${where} stderr shows ${leak}`).toBe(false);
      }
      if (args.includes('--json') || args.includes('sarif') || args.includes('gitlab')) JSON.parse(r.stdout);
      if (args.includes('--fix')) {
        // The diff is there, the secrets' elements with it, masked where they stand.
        const diff = args.includes('--json') ? (JSON.parse(r.stdout) as { diff: string }).diff : r.stdout;
        expect(diff, where).toContain('+    <server><id>central</id><username>***</username><password>***</password></server>');
        expect(diff, where).toContain(' <server><id>c</id><username>u</username><passphrase >***</passphrase ></server>');
        expect(diff, where).toContain('<gpg.passphrase >***</gpg.passphrase ><sonatypeToken>***</sonatypeToken><signing.password>***</signing.password>');
        // A reference names a variable, not a secret: shown as written.
        expect(diff, where).toContain('<password>${env.UNSET_FOR_THIS_TEST}</password>');
      }
    }
  }, 180_000);
});
