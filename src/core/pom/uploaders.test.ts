import { describe, expect, it } from 'vitest';
import { effectivePomFromText } from './index.js';
import { deploySkips, stagingPluginDeployer } from './uploaders.js';

const pom = (body: string): string => `<project><modelVersion>4.0.0</modelVersion><groupId>g</groupId><artifactId>a</artifactId><version>1</version>${body}</project>`;

function skips(body: string, parent?: string): ReturnType<typeof deploySkips> {
  const r = effectivePomFromText(pom(body), () => parent);
  if (!r.ok) throw new Error(r.message);
  return deploySkips(r.effective);
}

describe('deploySkips', () => {
  it('reads maven.deploy.skip and the deploy plugin <skip>, through properties and pluginManagement', () => {
    expect(skips('<properties><maven.deploy.skip>true</maven.deploy.skip></properties>')).toEqual({ deploy: true, publishing: false });
    const managed = '<properties><no.deploy>true</no.deploy></properties><build><pluginManagement><plugins><plugin><artifactId>maven-deploy-plugin</artifactId><configuration><skip>${no.deploy}</skip></configuration></plugin></plugins></pluginManagement></build>';
    expect(skips(managed).deploy).toBe(true);
    expect(skips('<properties><maven.deploy.skip>false</maven.deploy.skip></properties>').deploy).toBe(false);
  });

  it('a skip the parent declares for itself only (<inherited>false</inherited>) does not reach its modules', () => {
    const parent = (inherited: string): string =>
      `<project><groupId>g</groupId><artifactId>p</artifactId><version>1</version><packaging>pom</packaging><build><plugins><plugin><artifactId>maven-deploy-plugin</artifactId>${inherited}<configuration><skip>true</skip></configuration></plugin></plugins></build></project>`;
    const child = '<parent><groupId>g</groupId><artifactId>p</artifactId><version>1</version></parent>';
    expect(skips(child, parent('<inherited>false</inherited>')).deploy).toBe(false);
    expect(skips(child, parent('')).deploy).toBe(true);
  });

  it('the Central Portal plugin has its own switch: maven.deploy.skip does not stop it, skipPublishing does', () => {
    expect(skips('<properties><maven.deploy.skip>true</maven.deploy.skip></properties>').publishing).toBe(false);
    expect(skips('<properties><skipPublishing>true</skipPublishing></properties>').publishing).toBe(true);
    const inProfile = '<profiles><profile><id>release</id><build><plugins><plugin><groupId>org.sonatype.central</groupId><artifactId>central-publishing-maven-plugin</artifactId><configuration><skipPublishing>true</skipPublishing></configuration></plugin></plugins></build></profile></profiles>';
    expect(skips(inProfile).publishing).toBe(true);
    const excluded = (ids: string): string => `<build><plugins><plugin><groupId>org.sonatype.central</groupId><artifactId>central-publishing-maven-plugin</artifactId><configuration><excludeArtifacts>${ids}</excludeArtifacts></configuration></plugin></plugins></build>`;
    expect(skips(excluded('<excludeArtifact>x</excludeArtifact><excludeArtifact>a</excludeArtifact>')).publishing).toBe(true);
    expect(skips(excluded('<excludeArtifact>x</excludeArtifact>')).publishing).toBe(false);
  });

  it('when nexus-staging-maven-plugin deploys, only its skipNexusStagingDeployMojo counts', () => {
    const nexus = (cfg: string): string => `<properties><maven.deploy.skip>true</maven.deploy.skip></properties><build><plugins><plugin><groupId>org.sonatype.plugins</groupId><artifactId>nexus-staging-maven-plugin</artifactId><extensions>true</extensions><configuration>${cfg}</configuration></plugin></plugins></build>`;
    expect(skips(nexus('')).deploy).toBe(false);
    expect(skips(nexus('<skipNexusStagingDeployMojo>true</skipNexusStagingDeployMojo>')).deploy).toBe(true);
    expect(skips(`${nexus('')}`.replace('<maven.deploy.skip>', '<skipNexusStagingDeployMojo>true</skipNexusStagingDeployMojo><maven.deploy.skip>')).deploy).toBe(true);
  });

  it('the staging plugin deploys only when declared with extensions (a managed-only declaration configures nothing)', () => {
    const declared = (ext: string, managed: boolean): string => {
      const plugin = `<plugin><groupId>org.sonatype.plugins</groupId><artifactId>nexus-staging-maven-plugin</artifactId>${ext}</plugin>`;
      return managed ? `<build><pluginManagement><plugins>${plugin}</plugins></pluginManagement></build>` : `<build><plugins>${plugin}</plugins></build>`;
    };
    const deployer = (body: string) => {
      const r = effectivePomFromText(pom(body), () => undefined);
      if (!r.ok) throw new Error(r.message);
      return stagingPluginDeployer(r.effective);
    };
    expect(deployer(declared('<extensions>true</extensions>', false))).toBeDefined();
    expect(deployer(declared('', false))).toBeUndefined();
    expect(deployer(declared('<extensions>true</extensions>', true))).toBeUndefined();
  });
});
