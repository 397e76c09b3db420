import type { ComponentVerdict } from './types.js';

export const failureHeadline = 'Deployment reached an unexpected status: Failed';

/**
 * The portal's failure text: the headline, then `- <purl>` and one `  - <rule text>` line per
 * broken rule, for failing components only.
 */
export function formatFailure(verdicts: readonly ComponentVerdict[]): string {
  const lines = [failureHeadline];
  for (const verdict of verdicts) {
    if (verdict.violations.length === 0) continue;
    lines.push(`- ${verdict.purl}`);
    for (const violation of verdict.violations) lines.push(`  - ${violation.message}`);
  }
  return lines.join('\n');
}

export interface FailedComponentText {
  purl: string;
  messages: string[];
}

/**
 * Reverse of formatFailure, tolerant of the `Failed to process request: ` prefix and of CRLF, so a
 * client can turn the portal's error text back into components and rule texts. Lines that belong
 * to no component are returned under the purl `common`, as the Publisher API's `errors` map does.
 */
export function parseFailureText(text: string): FailedComponentText[] {
  const out: FailedComponentText[] = [];
  let current: FailedComponentText | undefined;
  for (const raw of text.replace(/\r\n/g, '\n').split('\n')) {
    const line = raw.replace(/^Failed to process request: /, '');
    if (line.trim() === '' || line.trim().startsWith(failureHeadline)) continue;
    const component = /^- (pkg:\S+)\s*$/.exec(line);
    if (component !== null) {
      current = { purl: component[1]!, messages: [] };
      out.push(current);
      continue;
    }
    const message = line.replace(/^\s*-\s+/, '').trim();
    if (current === undefined) {
      current = { purl: 'common', messages: [] };
      out.push(current);
    }
    current.messages.push(message);
  }
  return out;
}
