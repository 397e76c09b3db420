import { describe, expect, it } from 'vitest';
import type { GradleProjectFacts } from '../build-tools/gradle/facts.js';
import type { ProjectFacts } from './facts.js';
import { gradleLegacyStagingHost } from './gradle-repositories.js';
import { appliesWar } from './gradle-support.js';
import { urlTarget } from './publishing-hosts.js';

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

describe('legacy-staging-host (Gradle): a default behind a property test', () => {
  it('tells to set the property the build reads instead of the written default', () => {
    const facts: ProjectFacts = {
      root: '/p',
      buildTool: 'gradle',
      gatherFindings: [],
      gradle: {
        rootProjectName: 'demo',
        projects: [{ path: ':', dir: '.', dirExists: true, hasWebapp: false, plugins: [], repositories: [{ url: 'https://oss.sonatype.org/service/local/staging/deploy/maven2/', kind: 'release', file: 'gradle/mvn-push.gradle', line: 14, property: 'RELEASE_REPOSITORY_URL' }] }],
        user: { file: '/h/.gradle/gradle.properties', display: '~/.gradle/gradle.properties', state: 'missing', keys: [], tokenFromEnv: false },
        stagingApiUrl: 'https://ossrh-staging-api.central.sonatype.com',
        publishing: {},
      },
    };
    const [f] = gradleLegacyStagingHost.run(facts);
    expect(f!.fix).toBe('Set RELEASE_REPOSITORY_URL=https://ossrh-staging-api.central.sonatype.com/service/local/staging/deploy/maven2/ in gradle.properties (the build then uses it instead of the written default), or change that default.');
  });
});

describe('urlTarget: transports other than https', () => {
  it('s3, gcs, scp, sftp, webdav and Artifact Registry repositories are not Maven Central', () => {
    for (const url of ['s3://my-bucket/releases', 'gcs://bucket/maven', 'scp://repo.example.org/var/maven', 'sftp://host/repo', 'artifactregistry://europe-maven.pkg.dev/p/r']) {
      expect(urlTarget(url, 'https://ossrh-staging-api.central.sonatype.com')).toBe('other');
    }
    expect(urlTarget('https://repo.example.org/releases', 'https://ossrh-staging-api.central.sonatype.com')).toBe('central-unknown');
  });
});
