/**
 * A settings file holds secrets next to the `<server>` a fix edits: a diff's context lines could
 * show another server's password, a key passphrase or an HTTP header's token. Their literal values
 * are masked in what relctl prints; `${env.NAME}` references stay, they are what a person checks.
 */
const secretElements = /<(password|passphrase|privateKey|value)>([^<]*)<\/\1>/g;

export function maskSettingsSecrets(text: string): string {
  return text.replace(secretElements, (whole, name: string, value: string) =>
    value.trim() === '' || /^\$\{[^}]+\}$/.test(value.trim()) ? whole : `<${name}>***</${name}>`,
  );
}
