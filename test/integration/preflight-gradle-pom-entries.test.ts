import { describe, expect, it } from 'vitest';
import { fixtureCopy, preflight } from './preflight-gradle-fixture.js';

describe('relctl preflight: empty POM developer/license entries in Gradle builds', () => {
  it('reports the empty developer and license blocks of Kotlin and Groovy publications, not the computed or url-only ones', async () => {
    await using dir = await fixtureCopy('pom-entries', { git: true });
    const r = await preflight(dir.path);
    expect(r.exitCode).toBe(1);
    expect(r.findings.map((f) => [f.code, f.severity, f.file, f.line, f.module])).toEqual([
      // The root's snapshot repository is the portal's: the reminder to enable SNAPSHOTs (issue 42 item 5).
      ['snapshots-need-enabling', 'warning', 'build.gradle', 21, ':'],
      ['license-empty', 'error', 'api/build.gradle.kts', 16, ':api'],
      ['developer-empty', 'error', 'api/build.gradle.kts', 29, ':api'],
      ['developer-empty', 'error', 'legacy/build.gradle', 19, ':legacy'],
    ]);
    expect(r.findings[2]!.message).toContain('only email ci@example.org');
    expect(r.findings[3]!.message).toContain('name is set to an empty value');
    expect(r.findings[3]!.fix).toContain("name = 'Jane Doe'");
  });
});
