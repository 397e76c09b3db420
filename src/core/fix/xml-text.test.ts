import { describe, expect, it } from 'vitest';
import { applyEdits } from './apply.js';
import { parseXml, type XmlElement } from '../pom/xml.js';
import { appendLast, indentUnit, insertAfter, insertFirst, replaceText } from './xml-text.js';
import { lineEndingAt } from './text-style.js';

function doc(text: string): { text: string; root: XmlElement } {
  const r = parseXml(text);
  if (!r.ok) throw new Error(r.message);
  return { text, root: r.root };
}
const apply = (text: string, e: { start: number; end: number; replacement: string }): string => applyEdits(text, [{ file: 'f', ...e }]);
const server = [{ name: 'server', children: [{ name: 'id', text: 'central' }] }];

describe('XML text edits', () => {
  it('appends a child on its own lines in the file\'s line ending and indentation unit (tabs)', () => {
    const text = '<settings>\r\n\t<servers>\r\n\t\t<server><id>a</id></server> <!-- keep -->\r\n\t</servers>\r\n</settings>\r\n';
    const d = doc(text);
    const servers = d.root.children[0]!;
    expect(lineEndingAt(text, 0)).toBe('\r\n');
    expect(indentUnit(text, servers, d.root)).toBe('\t');
    expect(apply(text, appendLast(d, servers, server))).toBe(
      '<settings>\r\n\t<servers>\r\n\t\t<server><id>a</id></server> <!-- keep -->\r\n\t\t<server>\r\n\t\t\t<id>central</id>\r\n\t\t</server>\r\n\t</servers>\r\n</settings>\r\n',
    );
  });

  it('inserts first children after the start tag, one level deeper than the parent (4 spaces)', () => {
    const text = '<project>\n    <a>1</a>\n    <dm>\n    </dm>\n</project>\n';
    const d = doc(text);
    expect(apply(text, insertFirst(d, d.root.children[1]!, [{ name: 'repository', children: [{ name: 'id', text: 'x' }] }]))).toBe(
      '<project>\n    <a>1</a>\n    <dm>\n        <repository>\n            <id>x</id>\n        </repository>\n    </dm>\n</project>\n',
    );
  });

  it('writes inline into a parent on one line, and opens an empty-element tag', () => {
    const one = '<p><dm><site/></dm></p>';
    const d1 = doc(one);
    expect(apply(one, insertFirst(d1, d1.root.children[0]!, [{ name: 'repository', text: 'r' }]))).toBe('<p><dm><repository>r</repository><site/></dm></p>');
    const empty = '<settings>\n  <servers/>\n</settings>\n';
    const d2 = doc(empty);
    expect(apply(empty, appendLast(d2, d2.root.children[0]!, server))).toBe('<settings>\n  <servers><server><id>central</id></server></servers>\n</settings>\n');
  });

  it('inserts after a sibling on the next line, and replaces only the text between the whitespace, escaped', () => {
    const text = '<p>\n  <scm/>\n  <b>\n    old&amp;value\n  </b>\n</p>\n';
    const d = doc(text);
    expect(apply(text, insertAfter(d, d.root, d.root.children[0]!, [{ name: 'x', text: 'y' }]))).toBe('<p>\n  <scm/>\n  <x>y</x>\n  <b>\n    old&amp;value\n  </b>\n</p>\n');
    expect(apply(text, replaceText(text, d.root.children[1]!, 'a<b'))).toBe('<p>\n  <scm/>\n  <b>\n    a&lt;b\n  </b>\n</p>\n');
  });
});
