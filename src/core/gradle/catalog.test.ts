import { describe, expect, it } from 'vitest';
import { parseCatalogPlugins } from './catalog.js';

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
