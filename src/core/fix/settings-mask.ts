/**
 * A settings file holds secrets next to the `<server>` a fix edits: a diff's context lines could
 * show another server's password, a key passphrase or an HTTP header's token. Their literal values
 * are masked in what relctl prints; `${env.NAME}` references stay, they are what a person checks.
 * The rule is the one for every file read (core/secret-mask.ts), with the settings' own elements.
 */
import { maskSecrets } from '../secret-mask.js';

export function maskSettingsSecrets(text: string): string {
  return maskSecrets(text, { settings: true });
}
