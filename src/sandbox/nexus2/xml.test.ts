import { describe, expect, it } from 'vitest';
import { maxDescription, parseAction } from './request.js';
import { HttpError } from '../shared/http.js';
import { toXml } from './xml.js';

describe('the XStream side of the Nexus 2 staging API', () => {
  it('reads stagedRepositoryIds as a List<String> and as the JDK 17 Arrays$ArrayList with a string-array', () => {
    const list = '<stagingActionRequest><data><stagedRepositoryIds><string>a--1</string><string>b--2</string></stagedRepositoryIds></data></stagingActionRequest>';
    const jdk17 =
      '<stagingActionRequest><data><stagedRepositoryIds class="java.util.Arrays$ArrayList"><a class="string-array"><string>a--1</string></a></stagedRepositoryIds>' +
      '<description>Releasing &lt;x&gt; &amp; y</description><autoDropAfterRelease>true</autoDropAfterRelease></data></stagingActionRequest>';
    expect(parseAction(Buffer.from(list)).ids).toEqual(['a--1', 'b--2']);
    expect(parseAction(Buffer.from(jdk17))).toEqual({ ids: ['a--1'], description: 'Releasing <x> & y' });
    expect(parseAction(Buffer.from('<promoteRequest><data><stagedRepositoryId>c--3</stagedRepositoryId><description/></data></promoteRequest>'))).toEqual({
      ids: ['c--3'],
      description: '',
    });
    expect(parseAction(Buffer.from('<r><description>&#x41;&#66;<![CDATA[<&>]]></description></r>')).description).toBe('AB<&>');
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

  it('writes control characters as U+FFFD: XML 1.0 cannot carry them, not even as references', () => {
    expect(toXml('e', { msg: 'No such profile: \u001b[31m\u009bx\ty' })).toBe('<?xml version="1.0" encoding="UTF-8"?>\n<e><msg>No such profile: \uFFFD[31m\uFFFDx\ty</msg></e>');
  });
});

/** The status of the 400 (or other HttpError) parseAction throws, and its message. */
function refusal(body: string): { status: number; msg: string } | undefined {
  try {
    parseAction(Buffer.from(body));
    return undefined;
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    return { status: error.status, msg: String((error.body as { error: string }).error) };
  }
}

describe('hostile request bodies', () => {
  const mib = 1024 * 1024;
  // Each of these made the old regular expressions rescan the rest of the body from every tag.
  it.each([
    ['unclosed <stagedRepositoryIds>', '<stagedRepositoryIds>'],
    ['unclosed <string>', '<stagingActionRequest><data><stagedRepositoryIds><string>'.padEnd(64, ' ') + '<string>'],
    ['unclosed <description>', '<description>'],
    ['unclosed comments', '<!--'],
    ['unclosed attributes', '<a b="'],
    ['deep nesting', '<a>'],
  ])('1 MiB of %s is refused (400) in well under a second', (_name, unit) => {
    const body = unit.repeat(Math.floor(mib / unit.length));
    const started = performance.now();
    expect(refusal(body)?.status).toBe(400);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('refuses character references XML does not allow, and a DOCTYPE, with a 400', () => {
    for (const ref of ['&#x110000;', '&#1;', '&#27;', '&#xD800;', '&#99999999999;']) {
      expect(refusal(`<promoteRequest><data><description>${ref}</description></data></promoteRequest>`)).toMatchObject({ status: 400, msg: expect.stringContaining('not well-formed XML') });
    }
    expect(refusal('<!DOCTYPE r [<!ENTITY a "aaaa">]><r><description>&a;</description></r>')?.status).toBe(400);
  });

  it('refuses control characters in fields (JSON escapes, raw in XML), keeps tabs and newlines', () => {
    expect(refusal(JSON.stringify({ data: { description: 'x\u001b[31m' } }))?.msg).toContain('control character');
    expect(refusal(JSON.stringify({ data: { stagedRepositoryIds: ['a\u009b'] } }))?.msg).toContain('control character');
    expect(refusal('<r><description>x\u001b[31m</description></r>')?.msg).toContain('control character');
    expect(parseAction(Buffer.from(JSON.stringify({ data: { description: 'a\n\tb' } }))).description).toBe('a\n\tb');
  });

  it(`bounds the description at ${maxDescription} characters, and the ids`, () => {
    expect(parseAction(Buffer.from(JSON.stringify({ data: { description: 'd'.repeat(maxDescription) } }))).description).toHaveLength(maxDescription);
    expect(refusal(JSON.stringify({ data: { description: 'd'.repeat(maxDescription + 1) } }))?.msg).toBe(`The description is longer than ${maxDescription} characters`);
    expect(refusal(JSON.stringify({ data: { stagedRepositoryIds: ['x'.repeat(301)] } }))?.status).toBe(400);
    expect(refusal(JSON.stringify({ data: { stagedRepositoryIds: Array.from({ length: 1001 }, (_, i) => `r--${i}`) } }))?.status).toBe(400);
  });
});
