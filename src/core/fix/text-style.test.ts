import { describe, expect, it } from 'vitest';
import { indentOfLine, indentUnitOf, lineEndingAt, lineInsertion } from './text-style.js';

describe('the layout a fix copies', () => {
  it('finds the line ending of the line, of the file, or \\n', () => {
    expect(lineEndingAt('a\r\nb\r\n', 0)).toBe('\r\n');
    expect(lineEndingAt('a\r\nb', 4)).toBe('\r\n');
    expect(lineEndingAt('a\nb\r\nc', 0)).toBe('\n');
    expect(lineEndingAt('a\nb\r\nc', 2)).toBe('\r\n');
    expect(lineEndingAt('abc', 1)).toBe('\n');
  });

  it('tells tabs from 2 or 4 spaces, by the step between lines', () => {
    expect(indentUnitOf('<a>\n\t<b>\n\t\t<c/>\n\t</b>\n</a>\n')).toBe('\t');
    expect(indentUnitOf('<a>\n    <b>\n        <c/>\n    </b>\n    <d/>\n</a>\n')).toBe('    ');
    expect(indentUnitOf('<a>\r\n  <b>\r\n    <c/>\r\n  </b>\r\n</a>\r\n')).toBe('  ');
    expect(indentUnitOf('<a><b/></a>', '   ')).toBe('   ');
  });

  it('reads a line\'s indentation', () => {
    expect(indentOfLine('x\n\t  <y>\n', 5)).toBe('\t  ');
  });

  it('inserts after the line, keeping a trailing comment with its element, else right after the element', () => {
    const text = '  <a>1</a> <!-- one -->\r\n  <b/>';
    const end = text.indexOf('</a>') + 4;
    expect(lineInsertion(text, end, '  <n/>')).toEqual({ at: text.indexOf('\r\n'), text: '\r\n  <n/>' });
    const packed = '<a>1</a><b/>\n';
    expect(lineInsertion(packed, 8, '<n/>')).toEqual({ at: 8, text: '\n<n/>' });
  });
});
