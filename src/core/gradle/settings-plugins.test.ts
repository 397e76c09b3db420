import { describe, expect, it } from 'vitest';
import { settingsPlugins } from './settings-plugins.js';

describe('settings plugins', () => {
  it('reads the plugins a settings script applies, not the versions pluginManagement declares', () => {
    const text = `pluginManagement {
    plugins {
        id("com.gradleup.nmcp.settings") version "1.4.4"
    }
}
plugins {
    id("com.gradleup.nmcp.settings") version "1.5.0"
    id("org.gradle.toolchains.foojay-resolver-convention") version "0.8.0" apply false
}
`;
    expect(settingsPlugins(text)).toEqual([{ id: 'com.gradleup.nmcp.settings', line: 7, version: '1.5.0' }]);
  });
});
