import { describe, expect, it } from 'vitest';
import type { InitAnswers } from './answers.js';
import { ciFiles, configText, fileOutcomes } from './init-files.js';

const answers: InitAnswers = { ci: 'gitlab', buildTool: 'maven', route: 'staging-api', namespace: 'io.github.jane', relctlVersion: '1.2.3' };
const place = { projectDir: '.', defaultBranch: 'main' };

describe('configText', () => {
  it('a new config: $schema of that version, then the namespace named', () => {
    expect(JSON.parse(configText(answers, undefined))).toEqual({
      $schema: 'https://raw.githubusercontent.com/relctl/relctl/v1.2.3/schema/relctl.config.schema.json',
      namespace: 'io.github.jane',
    });
  });
  it("no namespace named: the project's groupId as groupId (the portal commands find its namespace)", () => {
    const text = configText({ ...answers, namespace: undefined, groupId: 'io.github.jane.app' }, undefined);
    expect(JSON.parse(text)).toMatchObject({ groupId: 'io.github.jane.app' });
    expect(JSON.parse(text)).not.toHaveProperty('namespace');
  });
  it('an existing config keeps its keys and its own $schema; $schema comes first', () => {
    const text = configText({ ...answers, namespace: undefined }, { timeout: 90, $schema: './my.json' });
    expect(text).toBe('{\n  "$schema": "./my.json",\n  "timeout": 90\n}\n');
  });
});

describe('fileOutcomes', () => {
  const planned = [
    { path: 'a', text: 'A' },
    { path: 'b', text: 'B' },
    { path: 'c', text: 'C' },
  ];
  it('absent: written; identical: unchanged; different with --force: written, replaced', () => {
    const onDisk = new Map([['b', 'B'], ['c', 'old']]);
    expect(fileOutcomes(planned, onDisk, true).map((o) => [o.path, o.status, o.replaced])).toEqual([
      ['a', 'written', false],
      ['b', 'unchanged', false],
      ['c', 'written', true],
    ]);
  });
  it('one refused file: every other file that would be written is not-written', () => {
    const onDisk = new Map([['b', 'B'], ['c', 'old']]);
    expect(fileOutcomes(planned, onDisk, false).map((o) => [o.path, o.status])).toEqual([
      ['a', 'not-written'],
      ['b', 'unchanged'],
      ['c', 'refused'],
    ]);
  });
});

describe('ciFiles on GitLab', () => {
  it('.gitlab-ci.yml when there is none, or when relctl init wrote it', () => {
    expect(ciFiles(answers, place, undefined).map((f) => f.path)).toEqual(['.gitlab-ci.yml']);
    const ours = ciFiles(answers, place, undefined)[0]!.text;
    expect(ciFiles(answers, place, ours).map((f) => f.path)).toEqual(['.gitlab-ci.yml']);
  });
  it("relctl.gitlab-ci.yml next to the project's own .gitlab-ci.yml", () => {
    expect(ciFiles(answers, place, 'build:\n  script: [make]\n').map((f) => f.path)).toEqual(['relctl.gitlab-ci.yml']);
  });
});
