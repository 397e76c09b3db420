import { describe, expect, it } from 'vitest';
import { inertCommands, inertLegacyCommands } from './workflow-commands.js';

describe('workflow commands in printed text', () => {
  it('a line that starts with :: (after any whitespace) and holds a second :: is made inert; other lines stay', () => {
    const text = ['::error title=X::Y', '   \t::add-mask::secret', '\u00a0::stop-commands::t', 'name ::error::mid-line', '::no-second-marker', 'plain'].join('\n');
    expect(inertCommands(text).split('\n')).toEqual(['\\::error title=X::Y', '   \t\\::add-mask::secret', '\u00a0\\::stop-commands::t', 'name ::error::mid-line', '::no-second-marker', 'plain']);
  });

  it('the legacy ##[name] is inert anywhere in a line; CRLF lines too', () => {
    expect(inertCommands('a ##[error]boom\r\n::warning::w\r\n')).toBe('a ##[\\error]boom\r\n\\::warning::w\r\n');
    expect(inertLegacyCommands('::error::x ##[group]y')).toBe('::error::x ##[\\group]y');
  });
});
