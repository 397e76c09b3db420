import { describe, expect, it } from 'vitest';
import { tempDir, writeTree } from '../../../test/helpers/temp.js';
import { codePrefix, loadConventionPlugins } from './conventions.js';

const pluginClass = `package demo
import org.gradle.api.Plugin
import org.gradle.api.Project
class Publishing : Plugin<Project> {
  override fun apply(target: Project) {
    target.plugins.apply("com.vanniktech.maven.publish")
  }
}
`;

describe('convention plugins of buildSrc and included builds', () => {
  it('reads Kotlin classes of build logic (kotlin-dsl, java-gradle-plugin, buildSrc), not of an included library build', async () => {
    await using dir = await tempDir();
    await writeTree(dir.path, {
      'build-logic/build.gradle.kts': 'plugins {\n  `kotlin-dsl`\n}\n',
      'build-logic/src/main/kotlin/demo/Publishing.kt': pluginClass,
      'buildSrc/src/main/kotlin/demo/Publishing.kt': pluginClass,
      'library/build.gradle.kts': 'plugins {\n  kotlin("jvm")\n}\n',
      'library/src/main/kotlin/demo/Publishing.kt': pluginClass,
    });
    const byId = await loadConventionPlugins(dir.path, ['buildSrc', 'build-logic', 'library'], new Map(), []);
    const code = [...byId.keys()].filter((k) => k.startsWith(codePrefix)).sort();
    expect(code).toEqual([`${codePrefix}build-logic/src/main/kotlin/demo/Publishing.kt`, `${codePrefix}buildSrc/src/main/kotlin/demo/Publishing.kt`]);
    expect(byId.get(code[0]!)!.plugins.map((p) => p.id)).toEqual(['com.vanniktech.maven.publish']);
  });
});
