import { describe, expect, it } from 'vitest';
import { locateElement, locateElements } from './xml-locate.js';

const pom = [
  '<?xml version="1.0" encoding="UTF-8"?>',
  '<!DOCTYPE project [ <!ENTITY x "<version>9</version>"> ]>',
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

describe('locateElements', () => {
  it('finds the project\'s own version, not the parent\'s, a comment\'s, a CDATA\'s or the doctype\'s', () => {
    const v = locateElement(pom, ['project', 'version'])!;
    expect(pom.slice(v.contentStart, v.contentEnd)).toBe('1.2.3-SNAPSHOT');
    expect(pom.slice(v.openStart, v.closeEnd)).toBe('<version>1.2.3-SNAPSHOT</version>');
    expect(v).toMatchObject({ indent: '\t', line: 10, selfClosing: false });
    const p = locateElement(pom, ['project', 'parent', 'version'])!;
    expect(pom.slice(p.contentStart, p.contentEnd)).toBe('1.0.0');
    expect(p).toMatchObject({ indent: '\t\t', line: 6 });
    expect(locateElements(pom, ['*', '*', 'version'])).toHaveLength(1);
  });

  it('gives a self-closing element an empty content, and no indent to a tag with text before it on its line', () => {
    const scm = locateElement(pom, ['project', 'scm'])!;
    expect(scm).toMatchObject({ selfClosing: true, contentStart: scm.closeEnd, contentEnd: scm.closeEnd });
    expect(locateElement(pom, ['project', 'description'])!.indent).toBe('');
  });

  it('lists children with a wildcard, in document order', () => {
    expect(locateElements(pom, ['project', '*']).map((e) => e.name)).toEqual(['parent', 'artifactId', 'description', 'version', 'scm']);
  });

  it('never throws on broken markup', () => {
    expect(locateElements('<project><version>1</vers', ['project', 'version'])).toEqual([]);
    expect(locateElements('<project><!-- open', ['project'])).toEqual([]);
    expect(locateElement('<project><a>x</project>', ['project'])?.name).toBe('project');
  });
});
