import { describe, expect, it } from 'vitest';
import { writtenGithub } from './preflight-fix.js';

describe('--fix --format github: the files written', () => {
  it('a file name with a line break or "%" stays on its line, escaped as the runner reads data', () => {
    const lines = writtenGithub(['pom.xml', 'mod\n::error::injected/pom.xml', 'a%0Ab/pom.xml']).join('\n').split('\n');
    expect(lines).toEqual(['wrote pom.xml', 'wrote mod%0A::error::injected/pom.xml', 'wrote a%250Ab/pom.xml']);
    expect(lines.filter((l) => l.startsWith('::'))).toEqual([]);
  });
});
