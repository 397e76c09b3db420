import { describe, expect, it } from 'vitest';
import type { GradleProjectFacts } from '../build-tools/gradle/facts.js';
import { appliesWar } from './gradle-support.js';

function web(id: string): GradleProjectFacts {
  return { path: ':web', dir: 'web', dirExists: true, hasWebapp: true, repositories: [], plugins: [{ id, file: 'web/build.gradle', line: 1, scope: 'self' }] };
}

describe('appliesWar: plugins of Groovy-era builds that apply the war plugin themselves', () => {
  it.each(['waroverlay', 'org.akhikhl.gretty', 'com.bmuschko.tomcat', 'com.bmuschko.tomcat-base', 'tomcat', 'jetty'])('%s', (id) => {
    expect(appliesWar(web(id))).toBe(true);
  });
  it('not for plugins that only run a web app', () => {
    expect(appliesWar(web('org.springframework.boot'))).toBe(false);
    expect(appliesWar(web('com.github.node-gradle.node'))).toBe(false);
  });
});
