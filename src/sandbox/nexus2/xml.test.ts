import { describe, expect, it } from 'vitest';
import { parseAction } from './request.js';
import { toXml, xmlStrings, xmlText } from './xml.js';

describe('the XStream side of the Nexus 2 staging API', () => {
  it('reads stagedRepositoryIds as a List<String> and as the JDK 17 Arrays$ArrayList with a string-array', () => {
    const list = '<stagingActionRequest><data><stagedRepositoryIds><string>a--1</string><string>b--2</string></stagedRepositoryIds></data></stagingActionRequest>';
    const jdk17 =
      '<stagingActionRequest><data><stagedRepositoryIds class="java.util.Arrays$ArrayList"><a class="string-array"><string>a--1</string></a></stagedRepositoryIds>' +
      '<description>Releasing &lt;x&gt; &amp; y</description><autoDropAfterRelease>true</autoDropAfterRelease></data></stagingActionRequest>';
    expect(xmlStrings(list, 'stagedRepositoryIds')).toEqual(['a--1', 'b--2']);
    expect(parseAction(Buffer.from(jdk17))).toEqual({ ids: ['a--1'], description: 'Releasing <x> & y' });
    expect(parseAction(Buffer.from('<promoteRequest><data><stagedRepositoryId>c--3</stagedRepositoryId><description/></data></promoteRequest>'))).toEqual({
      ids: ['c--3'],
      description: '',
    });
    expect(xmlText('<a><b>&#x41;&#66;</b></a>', 'b')).toBe('AB');
  });

  it('reads the JSON bodies of gradle-nexus and JReleaser, and refuses a body that is neither', () => {
    expect(parseAction(Buffer.from('{"data":{"stagedRepositoryIds":["x--1"],"description":"d"}}'))).toEqual({ ids: ['x--1'], description: 'd' });
    expect(() => parseAction(Buffer.from('{"data":'))).toThrow();
    expect(() => parseAction(Buffer.from('[1]'))).toThrow();
  });

  it('writes objects as elements in key order, arrays with their item alias, @class as an attribute, and escapes text', () => {
    const xml = toXml('stagingProfiles', { data: [{ id: 'a&b', targetGroups: ['staging'], properties: { '@class': 'linked-hash-map' }, none: null }] }, { data: 'stagingProfile' });
    expect(xml).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<stagingProfiles><data><stagingProfile><id>a&amp;b</id><targetGroups><string>staging</string></targetGroups><properties class="linked-hash-map"/></stagingProfile></data></stagingProfiles>',
    );
    expect(toXml('list', [{ name: 'open' }], {}, 'stagingActivity')).toContain('<list><stagingActivity><name>open</name></stagingActivity></list>');
  });
});
