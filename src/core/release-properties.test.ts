import { describe, expect, it } from 'vitest';
import { parseJavaProperties, preparedRelease } from './release-properties.js';

/** release.properties as maven-release-plugin 3.3.1 wrote it after a finished release:prepare (trimmed). */
const written = `#release configuration
#Mon Nov 23 15:34:01 UTC 2026
project.dev.org.example.m1\\:e2e-core=1.0.1-SNAPSHOT
project.dev.org.example.m1\\:e2e-parent=1.0.1-SNAPSHOT
project.rel.org.example.m1\\:e2e-parent=1.0.0
project.scm.org.example.m1\\:e2e-parent.developerConnection=scm\\:git\\:file\\:///tmp/x/remote.git
completedPhase=end-release
scm.tag=e2e-parent-1.0.0
scm.commentPrefix=[maven-release-plugin] 
projectVersionPolicyConfig=<projectVersionPolicyConfig>\${projectVersionPolicyConfig}</projectVersionPolicyConfig>\\n
`;

describe('release.properties', () => {
  it('reads the escapes Java writes (\\: in keys and values, \\n, continuations)', () => {
    const p = parseJavaProperties(`${written}a.long=one \\\n    two\nkey\\ with\\ spaces : v\n`);
    expect(p.get('project.scm.org.example.m1:e2e-parent.developerConnection')).toBe('scm:git:file:///tmp/x/remote.git');
    expect(p.get('projectVersionPolicyConfig')).toBe('<projectVersionPolicyConfig>${projectVersionPolicyConfig}</projectVersionPolicyConfig>\n');
    expect(p.get('a.long')).toBe('one two');
    expect(p.get('key with spaces')).toBe('v');
  });

  it('a finished prepare gives the tag and the root project versions', () => {
    expect(preparedRelease(written, 'org.example.m1', 'e2e-parent')).toEqual({ tag: 'e2e-parent-1.0.0', version: '1.0.0', nextVersion: '1.0.1-SNAPSHOT' });
  });

  it('nothing when prepare stopped earlier, or the file is about another project', () => {
    expect(preparedRelease(written.replace('end-release', 'scm-tag'), 'org.example.m1', 'e2e-parent')).toBeUndefined();
    expect(preparedRelease(written, 'org.example.other', 'e2e-parent')).toBeUndefined();
  });
});
