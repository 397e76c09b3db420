import { describe, expect, it } from 'vitest';
import { exportedVariables, makesRelease } from './ci-release-evidence.js';

// inspektr's snapshot job (reduced): push to master, `mvn deploy` with the project's own settings file.
const snapshots = `name: Build
env:
  SONATYPE_PWD: \${{ secrets.SONATYPE_PWD }}
  SONATYPE_USER: \${{ secrets.SONATYPE_USER }}
on:
  push:
    branches: [ master ]
jobs:
  publish-snapshots:
    if: \${{ github.event_name == 'push' }}
    steps:
      - name: Publish SNAPSHOTs
        run:  mvn -T 10 deploy --settings ./.github/workflows/settings.xml
`;

describe('makesRelease', () => {
  it('a deploy of what the branch holds is not a release', () => {
    expect(makesRelease(snapshots)).toBe(false);
    expect(makesRelease('script:\n  # on tags: mvn release:perform\n  - mvn -s ci.xml deploy\n')).toBe(false);
  });

  it.each([
    ['the release plugin', 'run: mvn -B release:prepare release:perform -s .github/settings.xml'],
    ['a version set for the build', 'run: mvn versions:set -DnewVersion=${TAG} && mvn -s s.xml deploy'],
    ['a CI-friendly version', 'run: mvn -Drevision=${GITHUB_REF_NAME} -s s.xml deploy'],
    ['a release profile (feign)', 'command: ./mvnw -s .circleci/settings.xml -P release -pl -:feign-benchmark deploy'],
    ['-Prelease', 'run: ./mvnw -B --settings .github/maven-settings.xml -Prelease deploy'],
    ['a GitHub tag trigger', 'on:\n  push:\n    tags: [ "v*" ]\njobs:\n  d:\n    steps:\n      - run: mvn -s s.xml deploy'],
    ['a GitHub release event', 'on:\n  release:\n    types: [published]\n'],
    ['CircleCI tag filters', 'filters:\n  branches:\n    ignore: /.*/\n  tags:\n    only: /.*/\n'],
    ['GitLab', 'deploy:\n  rules:\n    - if: $CI_COMMIT_TAG\n  script: mvn -s ci_settings.xml deploy'],
    ['GitLab only: tags', 'deploy:\n  only:\n    - tags\n'],
    ['Travis', 'deploy:\n  on:\n    tags: true\n'],
    ['relctl', 'run: relctl release --yes'],
  ])('%s is a release', (_what, text) => {
    expect(makesRelease(text)).toBe(true);
  });
});

describe('exportedVariables', () => {
  it("a workflow's env keys and shell exports", () => {
    expect(exportedVariables(snapshots)).toEqual(['SONATYPE_PWD', 'SONATYPE_USER']);
    expect(exportedVariables('export MAVEN_USERNAME=x\nOSSRH_TOKEN=$(cat t) mvn deploy\n')).toEqual(['MAVEN_USERNAME', 'OSSRH_TOKEN']);
  });
});
