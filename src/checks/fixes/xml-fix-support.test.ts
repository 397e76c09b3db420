import { describe, expect, it } from 'vitest';
import { parseXml } from '../../core/pom/xml.js';
import { elementAt, elementsAt, isEmptyTag } from './xml-fix-support.js';

// The markup that must never be edited: a doctype's entity, a comment, CDATA, a parent's version.
const pom = [
  '<?xml version="1.0" encoding="UTF-8"?>',
  '<!DOCTYPE project [ <!ENTITY x "v"> ]>',
  '<project xmlns="http://maven.apache.org/POM/4.0.0" a=\'>\'>',
  '\t<parent>',
  '\t\t<groupId>g</groupId>',
  '\t\t<version>1.0.0</version>',
  '\t</parent>',
  '\t<!-- <version>0.9</version> -->',
  '\t<artifactId>demo</artifactId><description><![CDATA[ <version>cdata</version> ]]></description>',
  '\t<version>1.2.3-SNAPSHOT</version>',
  '\t<scm/>',
  '</project>',
].join('\r\n');

function root() {
  const r = parseXml(pom);
  if (!r.ok) throw new Error(r.message);
  return r.root;
}

describe('elements by path, at the scanner\'s offsets', () => {
  it('finds the project\'s own version, not the parent\'s, a comment\'s, a CDATA\'s or the doctype\'s', () => {
    const v = elementAt(root(), ['project', 'version'])!;
    expect(pom.slice(v.contentStart, v.contentEnd)).toBe('1.2.3-SNAPSHOT');
    expect(pom.slice(v.start, v.end)).toBe('<version>1.2.3-SNAPSHOT</version>');
    expect(v.line).toBe(10);
    const p = elementAt(root(), ['project', 'parent', 'version'])!;
    expect(pom.slice(p.contentStart, p.contentEnd)).toBe('1.0.0');
    expect(p.line).toBe(6);
    expect(elementsAt(root(), ['*', '*', 'version'])).toHaveLength(1);
  });

  it('tells an empty-element tag from an element with content', () => {
    const scm = elementAt(root(), ['project', 'scm'])!;
    expect(isEmptyTag(scm)).toBe(true);
    expect(scm).toMatchObject({ contentStart: scm.end, contentEnd: scm.end });
    expect(isEmptyTag(elementAt(root(), ['project', 'version'])!)).toBe(false);
  });

  it('lists children with a wildcard, in document order, and nothing for another root', () => {
    expect(elementsAt(root(), ['project', '*']).map((e) => e.name)).toEqual(['parent', 'artifactId', 'description', 'version', 'scm']);
    expect(elementsAt(root(), ['settings', '*'])).toEqual([]);
  });
});
