import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Output } from './output.js';
import type { Style } from './style.js';

function sink(): { stream: Writable; text: () => string } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { stream, text: () => text };
}

// A colour style like chalk's (SGR open and close around the text).
const sgr = (open: number, close: number) => (t: string) => `\u001b[${open}m${t}\u001b[${close}m`;
const colour: Style = { bold: sgr(1, 22), dim: sgr(2, 22), red: sgr(31, 39), green: sgr(32, 39), yellow: sgr(33, 39), cyan: sgr(36, 39) };
const hostile = 'a\u001b[2J\u001b]0;title\u0007b\u009b31mc\u202ed\re\u0000f';

describe('Output: one plain-text rule at the boundary', () => {
  it('strips control and bidi characters from every line, a lone CR included; keeps CRLF and tabs', () => {
    const err = sink();
    const std = sink();
    const out = new Output({ json: false, verbose: true, color: false, interactive: false, stderr: err.stream, stdout: std.stream });
    out.info(hostile);
    out.warn(hostile);
    out.verbose(hostile);
    out.result(`x\r\ny\t${hostile}`);
    expect(err.text()).toBe(['abcd\nef', 'warning abcd\nef', 'abcd\nef', ''].join('\n'));
    expect(std.text()).toBe('x\r\ny\tabcd\nef\n');
  });

  it('with colour on, relctl\'s own colours pass and an injected sequence does not', () => {
    const err = sink();
    const out = new Output({ json: false, verbose: false, color: true, colorStyle: colour, interactive: false, stderr: err.stream, stdout: sink().stream });
    out.error(`${out.c.bold('x')} \u001b[31mfake red\u001b[0m`);
    expect(err.text()).toBe('\u001b[31merror\u001b[39m \u001b[1mx\u001b[22m fake red\n');
  });

  it('--json strings are plain too (JSON escapes C0 controls, which a consumer would decode back) and URL credentials are masked', () => {
    const std = sink();
    const out = new Output({ json: true, verbose: false, color: false, interactive: false, stderr: sink().stream, stdout: std.stream });
    out.resultJson({ message: hostile, url: 'https://u:pw-canary@repo.example.org/' });
    expect(JSON.parse(std.text())).toEqual({ message: 'abcd\nef', url: 'https://u:***@repo.example.org/' });
  });

  it('no line a value put in is a workflow command; --format github keeps relctl\'s own, one line each', () => {
    const err = sink();
    const std = sink();
    const out = new Output({ json: false, verbose: false, color: false, interactive: false, stderr: err.stream, stdout: std.stream });
    out.info('The developer Jane\n::error title=X::Y lacks <organization>.');
    out.resultCommands('::warning file=pom.xml,line=3::The developer Ann\u2028::add-mask::x lacks it.\nwrote a ##[error]b');
    expect(err.text()).toBe('The developer Jane\n\\::error title=X::Y lacks <organization>.\n');
    expect(std.text()).toBe('::warning file=pom.xml,line=3::The developer Ann ::add-mask::x lacks it.\nwrote a ##[\\error]b\n');
  });

  it('--json masks a secret holding " or \\ before serialising (escaped, it would no longer match)', () => {
    const std = sink();
    const out = new Output({ json: true, verbose: false, color: false, interactive: false, stderr: sink().stream, stdout: std.stream });
    out.redactor.add('pw"with\\slash');
    out.resultJson({ diff: '<password>pw"with\\slash</password> ##[error]x' });
    expect(std.text()).not.toContain('with');
    expect(JSON.parse(std.text())).toEqual({ diff: '<password>***</password> ##[\\error]x' });
  });
});

describe('Output.showAsGiven: a URL whose credentials the caller chose', () => {
  it('prints that URL as it is, in text and JSON; any other URL credentials stay masked', () => {
    for (const json of [false, true]) {
      const std = sink();
      const out = new Output({ json, verbose: false, color: false, interactive: false, stdout: std.stream, stderr: sink().stream });
      const given = 'smtp://mailer:pw-1234@127.0.0.1:2525';
      out.showAsGiven(given);
      const other = 'https://deployer:s3cret@repo.example.org/x';
      if (json) out.resultJson({ smtpUrl: given, other, both: `${given} ${other}` });
      else out.result(`smtpUrl=${given} other=${other}`);
      expect(std.text()).toContain(given);
      expect(std.text()).not.toContain('s3cret');
      expect(std.text()).toContain('https://deployer:***@repo.example.org/x');
    }
  });

  it('without it, the same URL is masked (the default)', () => {
    const std = sink();
    const out = new Output({ json: true, verbose: false, color: false, interactive: false, stdout: std.stream, stderr: sink().stream });
    out.resultJson({ smtpUrl: 'smtp://mailer:pw-1234@127.0.0.1:2525' });
    expect(std.text()).toContain('smtp://mailer:***@127.0.0.1:2525');
  });
});
