import { describe, expect, it } from 'vitest';
import { planChangelog } from './changelog.js';

const notes = '## Fixes\n\n- one (abc1234)\n';

describe('planChangelog', () => {
  it('goes above the newest release, not into a heading inside a code fence of the preamble', () => {
    const file = '# Changes\n\n```md\n## not a release\n```\n\n## 1.0.9 (2026-01-01)\n\n- old\n';
    const plan = planChangelog(file, '1.0.10', '2026-11-20', notes);
    expect(plan).toMatchObject({ action: 'insert', line: 7 });
    expect(plan.action === 'insert' && plan.text).toBe('# Changes\n\n```md\n## not a release\n```\n\n## 1.0.10 (2026-11-20)\n\n### Fixes\n\n- one (abc1234)\n\n## 1.0.9 (2026-01-01)\n\n- old\n');
  });

  it('a file with only a title (no final newline) gets the section after a blank line; an empty file just the section', () => {
    expect(planChangelog('# Changelog', '1.0.0', '2026-11-20', notes)).toMatchObject({ text: '# Changelog\n\n## 1.0.0 (2026-11-20)\n\n### Fixes\n\n- one (abc1234)\n\n' });
    expect(planChangelog('', '1.0.0', '2026-11-20', notes)).toMatchObject({ text: '## 1.0.0 (2026-11-20)\n\n### Fixes\n\n- one (abc1234)\n\n' });
  });

  it('knows the version is there in its usual heading forms, and 1.0.1 is not 1.0.10', () => {
    for (const heading of ['## 1.0.1', '## 1.0.1 (2026-01-01)', '## [1.0.1](https://example.org/compare)', '## v1.0.1']) {
      expect(planChangelog(`# C\n\n${heading}\n\n- x\n`, '1.0.1', '2026-11-20', notes)).toEqual({ action: 'present', line: 3 });
    }
    expect(planChangelog('# C\n\n## 1.0.10\n', '1.0.1', '2026-11-20', notes).action).toBe('insert');
  });
});
