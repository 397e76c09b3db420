import { describe, expect, it } from 'vitest';
import { mvnDeployCommands } from './maven-deploy-command.js';

describe('mvnDeployCommands', () => {
  it('reads -f and -pl of deploy commands only, as written', () => {
    const text = [
      '      - run: mvn -B verify',
      '      - run: ./mvnw -B -f lib/pom.xml -s .github/settings.xml clean deploy -P release',
      '        run: mvn --batch-mode --projects core,:api,!docs deploy && echo done',
      '# mvn -f old/pom.xml deploy',
      '        run: mvn -B -f "$GITHUB_WORKSPACE/app" deploy',
      '        run: mvn -f ${{ matrix.dir }} deploy',
      '        run: mvn -pl core -am org.apache.maven.plugins:maven-deploy-plugin:3.1.2:deploy',
    ].join('\n');
    expect(mvnDeployCommands(text)).toEqual([{ file: 'lib/pom.xml' }, { projects: ['core', ':api', '!docs'] }, { file: 'app' }, 'unknown', { projects: ['core'], alsoMake: true }]);
  });

  it('keeps the project list as written: exclusions, repeated -pl, -amd and -N (feign: -pl -:feign-benchmark)', () => {
    const text = [
      '            ./mvnw -ntp -nsu -s .circleci/settings.xml -P release -pl -:feign-benchmark -DskipTests=true deploy',
      '        run: mvn -pl core -pl " !docs , +:api" -amd deploy',
      '        run: mvn -N -f parent deploy',
    ].join('\n');
    expect(mvnDeployCommands(text)).toEqual([{ projects: ['-:feign-benchmark'] }, { projects: ['core', '!docs', '+:api'], alsoMakeDependents: true }, { file: 'parent', nonRecursive: true }]);
  });
});
