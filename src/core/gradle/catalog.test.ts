import { describe, expect, it } from 'vitest';
import { catalogLibraryVersion, parseCatalogPlugins } from './catalog.js';

describe('version catalog plugins', () => {
  it('resolves inline tables, version refs and the short form to accessors', () => {
    const plugins = parseCatalogPlugins(`
[versions]
vanniktech = "0.29.0" # pinned

[plugins]
vanniktech-publish = { id = "com.vanniktech.maven.publish", version.ref = "vanniktech" }
gretty = { id = "org.gretty", version = "4.1.5" }
nmcp_plugin = "com.gradleup.nmcp:0.0.8"
`);
    expect(plugins.get('libs.plugins.vanniktech.publish')).toEqual({ id: 'com.vanniktech.maven.publish', version: '0.29.0' });
    expect(plugins.get('libs.plugins.gretty')).toEqual({ id: 'org.gretty', version: '4.1.5' });
    expect(plugins.get('libs.plugins.nmcp.plugin')).toEqual({ id: 'com.gradleup.nmcp', version: '0.0.8' });
  });
});

describe('version catalog libraries', () => {
  it('finds the version a catalog gives a library module, in every shape', () => {
    const text = `
[versions]
mp = "0.28.0"
[libraries]
a = "com.vanniktech:gradle-maven-publish-plugin:0.25.3"
`;
    expect(catalogLibraryVersion(text, 'com.vanniktech:gradle-maven-publish-plugin')).toBe('0.25.3');
    const ref = '[versions]\nmp = "0.28.0"\n[libraries]\nb = { module = "com.vanniktech:gradle-maven-publish-plugin", version.ref = "mp" }\n';
    expect(catalogLibraryVersion(ref, 'com.vanniktech:gradle-maven-publish-plugin')).toBe('0.28.0');
    expect(catalogLibraryVersion('[libraries]\n', 'com.vanniktech:gradle-maven-publish-plugin')).toBeUndefined();
  });
});
