import { describe, expect, it } from 'vitest';
import { parseXml } from '../pom/xml.js';
import { indentBefore, indentOfLine, lineEndingAt, lineInsertion } from './text-style.js';
import { indentUnit } from './xml-text.js';

function unitOf(text: string): string {
  const r = parseXml(text);
  if (!r.ok) throw new Error(r.message);
  return indentUnit(text, r.root, r.root);
}

describe('the layout a fix copies', () => {
  it('finds the line ending of the line, of the file, or \\n', () => {
    expect(lineEndingAt('a\r\nb\r\n', 0)).toBe('\r\n');
    expect(lineEndingAt('a\r\nb', 4)).toBe('\r\n');
    expect(lineEndingAt('a\nb\r\nc', 0)).toBe('\n');
    expect(lineEndingAt('a\nb\r\nc', 2)).toBe('\r\n');
    expect(lineEndingAt('abc', 1)).toBe('\n');
  });

  it.each([
    ['<a>\n\t<b>\n\t\t<c/>\n\t</b>\n</a>\n', '\t'],
    ['<a>\n    <b>\n        <c/>\n    </b>\n    <d/>\n</a>\n', '    '],
    ['<a>\r\n  <b>\r\n    <c/>\r\n  </b>\r\n</a>\r\n', '  '],
    ['<a><b/></a>', '  '],
  ])('tells tabs from 2 or 4 spaces, by the step from an element to its child (%j)', (text, unit) => {
    expect(unitOf(text)).toBe(unit);
  });

  it('reads a line\'s indentation', () => {
    expect(indentOfLine('x\n\t  <y>\n', 5)).toBe('\t  ');
    expect(indentBefore('x\n\t  <y>\n', 5)).toBe('\t  ');
    expect(indentBefore('x\n\t<a/><y>\n', 7)).toBeUndefined();
  });

  it('inserts after the line, keeping a trailing comment with its element, else right after the element', () => {
    const text = '  <a>1</a> <!-- one -->\r\n  <b/>';
    const end = text.indexOf('</a>') + 4;
    expect(lineInsertion(text, end, '  <n/>')).toEqual({ at: text.indexOf('\r\n'), text: '\r\n  <n/>' });
    const packed = '<a>1</a><b/>\n';
    expect(lineInsertion(packed, 8, '<n/>')).toEqual({ at: 8, text: '\n<n/>' });
  });
});
