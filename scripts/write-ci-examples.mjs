// Regenerates examples/github-workflows/, examples/gitlab-ci/ and the YAML blocks of docs/ci.md
// from relctl init's generators, for examples/demo (run after `npm run build`). The test suite
// (test/integration/ci-workflows.test.ts) checks all three agree with the generators.
import { readFileSync, writeFileSync } from 'node:fs';
import { preflightWorkflow, releaseWorkflow } from '../dist/core/ci/github-workflows.js';
import { gitlabJobs } from '../dist/core/ci/gitlab-ci.js';
import { packageVersion } from '../dist/io/package-info.js';

const at = (rel) => new URL(`../${rel}`, import.meta.url);
const answers = { ci: 'github', buildTool: 'maven', route: 'staging-api', namespace: 'org.example.relctl', relctlVersion: packageVersion() };
const place = { projectDir: '.', defaultBranch: 'main' };
const files = [
  ['examples/github-workflows/relctl-preflight.yml', preflightWorkflow(answers, place)],
  ['examples/github-workflows/relctl-release.yml', releaseWorkflow(answers, place)],
  ['examples/gitlab-ci/.gitlab-ci.yml', gitlabJobs({ ...answers, ci: 'gitlab' }, place)],
];
for (const [file, text] of files) writeFileSync(at(file), text);
// docs/ci.md shows the three files, in this order, as its only yaml blocks.
let block = 0;
const doc = readFileSync(at('docs/ci.md'), 'utf8').replace(/```yaml\n[\s\S]*?```/g, () => `\`\`\`yaml\n${files[block++][1]}\`\`\``);
if (block !== files.length) throw new Error(`docs/ci.md has ${block} yaml blocks, expected ${files.length}`);
writeFileSync(at('docs/ci.md'), doc);
