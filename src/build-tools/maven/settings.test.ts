import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { settingsArgument, settingsFileFor, splitMavenArgs } from './settings.js';

describe('the settings file Maven uses', () => {
  it('reads -s FILE, --settings FILE, --settings=FILE and -sFILE (the last one wins)', () => {
    expect(settingsArgument(splitMavenArgs('-B -s ci/settings.xml'))).toBe('ci/settings.xml');
    expect(settingsArgument(splitMavenArgs('--settings "my dir/s.xml" -U'))).toBe('my dir/s.xml');
    expect(settingsArgument(splitMavenArgs('--settings=.mvn/s.xml'))).toBe('.mvn/s.xml');
    expect(settingsArgument(splitMavenArgs('-s a.xml\n-sb.xml'))).toBe('b.xml');
    expect(settingsArgument(splitMavenArgs('-B --strict-checksums -DskipTests'))).toBeUndefined();
  });

  it('prefers relctl --settings, then MAVEN_ARGS, then .mvn/maven.config (relative to the project), then ~/.m2', () => {
    const base = { root: '/p', home: '/h' };
    expect(settingsFileFor({ ...base, settingsFile: '/x.xml', env: { MAVEN_ARGS: '-s y.xml' }, mavenConfig: '-s z.xml' })).toEqual({ file: '/x.xml' });
    expect(settingsFileFor({ ...base, env: { MAVEN_ARGS: '-s ~/ci.xml' }, mavenConfig: '-s z.xml' })).toEqual({ file: path.join('/h', 'ci.xml'), via: 'MAVEN_ARGS' });
    expect(settingsFileFor({ ...base, env: {}, mavenConfig: '--settings=${maven.multiModuleProjectDirectory}/.mvn/s.xml' })).toEqual({ file: '/p/.mvn/s.xml', via: '.mvn/maven.config' });
    expect(settingsFileFor({ ...base, env: {} })).toEqual({ file: path.join('/h', '.m2', 'settings.xml') });
  });
});
