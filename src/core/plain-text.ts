/**
 * Text from outside (commit messages, a tracker's status names) made plain before relctl shows it
 * anywhere: a terminal, a release page, a pull request body, a file, a mail. Escape sequences could
 * recolour or rewrite a terminal, bidi overrides make text read other than it is (CVE-2021-42574,
 * "Trojan Source"), NUL and other control bytes break files and mail. Every pattern is linear: each
 * one starts only at an ESC (or a C1 introducer) and stops at the next one.
 */

// CSI (ESC [ … final byte, or the one-byte C1 CSI), OSC (ESC ] … BEL or ST), and two-byte ESC sequences.
const csi = /(?:\x1b\[|\x9b)[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]/g;
const osc = /(?:\x1b\]|\x9d)[^\x07\x1b\x9c\n]*(?:\x07|\x1b\\|\x9c)/g;
const escPair = /\x1b[\x20-\x7e]/g;
// C0 but tab and newline, DEL, C1; bidi embeddings, overrides, isolates and marks.
const controls = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
// The same but CR (kept before LF only).
const controlsButCr = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export interface PlainTextOptions {
  /** One line: newlines and tabs become spaces (a subject, a title). */
  singleLine?: boolean;
  /**
   * CRLF stays CRLF (a diff of a CRLF file must still apply); a lone CR, which moves a terminal's
   * cursor back over what was printed, still becomes a newline.
   */
  keepCrlf?: boolean;
}

export function plainText(text: string, options: PlainTextOptions = {}): string {
  const lines = text
    .replace(options.keepCrlf === true ? /\r(?!\n)/g : /\r\n?/g, '\n')
    .replace(/[\u2028\u2029]/g, '\n')
    .replace(csi, '')
    .replace(osc, '')
    .replace(escPair, '')
    .replace(options.keepCrlf === true ? controlsButCr : controls, '');
  return options.singleLine === true ? lines.replace(/[\n\t]/g, ' ') : lines;
}

/** A value quoted into one line of a message (a name, a file name): it must not start a line of its own. */
export function oneLine(text: string): string {
  return plainText(text, { singleLine: true });
}
