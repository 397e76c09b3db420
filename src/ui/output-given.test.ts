import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Output } from './output.js';

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
