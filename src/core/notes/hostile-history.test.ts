import { describe, expect, it } from 'vitest';
import { noteEntries, subjectLimit } from './commits.js';
import { parserView } from './parser-view.js';

/**
 * Commit text an attacker (or an accident) can write: conventional-commits-parser's reference
 * pattern costs the cube of a line's length, so these inputs took seconds to hours before the
 * parser was given a bounded view. The bound here is generous: "does not hang", not a benchmark.
 */
const sha = 'a'.repeat(40);
const hostile: Record<string, string> = {
  'a 1 MB subject of one letter': 'a'.repeat(1_000_000),
  'a typed 1 MB subject': `fix(core): ${'a'.repeat(1_000_000)}`,
  'a 1 MB run of KEY- look-alikes': 'A-'.repeat(500_000),
  'a 1 MB subject of words ending in a reference': `${'word '.repeat(200_000)}#12`,
  '100 body lines of dashes': `fix: x\n\n${`${'a-'.repeat(50)}\n`.repeat(100)}`,
  'a 1 MB body line': `fix: x\n\n${'a-'.repeat(500_000)}`,
  '10,000 body lines': `fix: x\n\n${'line of text #1\n'.repeat(10_000)}Closes #7`,
};

describe('hostile history', () => {
  it.each(Object.entries(hostile))('%s parses in bounded time into a sensible entry', (_name, message) => {
    const began = performance.now();
    const [entry] = noteEntries([{ sha, message }]);
    expect(performance.now() - began).toBeLessThan(3_000);
    expect(entry).toBeDefined();
    expect(entry!.subject.length).toBeLessThanOrEqual(subjectLimit);
  });

  it('keeps type, scope, the whole subject (up to the limit) and the references of a long header', () => {
    const subject = `add a description of the feature that goes on well beyond what fits on one line ${'x'.repeat(30)}`;
    const [e] = noteEntries([{ sha, message: `feat(api)!: ${subject} (#1234)\n\nRefs acme/other#5` }]);
    expect(e).toMatchObject({ type: 'feat', scope: 'api', subject: `${subject} (#1234)`, breaking: true, refs: ['#1234', 'acme/other#5'] });
    const [long] = noteEntries([{ sha, message: `fix: ${'b'.repeat(2_000)}` }]);
    expect(long).toMatchObject({ type: 'fix', subject: `${'b'.repeat(subjectLimit - 1)}…` });
  });

  it('a long body still yields its footer references and BREAKING CHANGE note', () => {
    const body = `${'x'.repeat(5_000)}\n`.repeat(50) + `${'filler line\n'.repeat(500)}BREAKING CHANGE: ${'y'.repeat(3_000)} see #9\nCloses #10`;
    const [e] = noteEntries([{ sha, message: `fix: z\n\n${body}` }]);
    expect(e).toMatchObject({ breaking: true, refs: ['#10'] });
  });

  it('control characters never reach an entry; CRLF reads as LF', () => {
    const [e] = noteEntries([{ sha, message: 'feat(\x1b[31mui\x1b[0m): sh\x00ow \u202Eevil\u202C\x1b]0;title\x07 #4\r\n\r\nCloses #5\r\n' }]);
    expect(e).toMatchObject({ type: 'feat', scope: 'ui', subject: 'show evil #4', refs: ['#4', '#5'] });
  });

  it('an ordinary message is given to the parser untouched', () => {
    const message = 'fix(core): one\n\nbody line\n\nBREAKING CHANGE: two\nCloses #3, UP-4';
    expect(parserView(message)).toEqual({ text: message });
  });
});

describe('the bounded view keeps what the parser reads', () => {
  it('a long line with a URL still voids its references, as the parser reads the full line', () => {
    const url = `https://github.com/acme/demo/pull/1234/files#diff-${'0123456789abcdef'.repeat(4)}`;
    const [e] = noteEntries([{ sha, message: `fix: x\n\nSee ${url} and #13 for the long story of this change, written on one line\n\nCloses #14` }]);
    expect(e!.refs).toEqual(['#14']);
  });

  it('a short line with a 60-character run is read through the view, its real references kept', () => {
    const [e] = noteEntries([{ sha, message: `fix: x\n\n${'A'.repeat(59)}- UP-7\nRefs acme/demo#5` }]);
    expect(e!.refs).toEqual(['UP-7', 'acme/demo#5']);
  });
});
