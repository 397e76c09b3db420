/**
 * Secrets that relctl did not put in a file but may print from it: a URL's credentials
 * (`https://user:password@host`), and values whose names say they are secret (`<gpg.passphrase>`,
 * `<sonatypeToken>`, `signing.password=`, a settings `<privateKey>`). Masked as `***` wherever text
 * read from a file is shown: a `--dry-run` diff's context lines, finding messages, reports.
 * `${…}` references stay: they name a variable, not its value, and are what a person checks.
 */

// A name is split into words at `.`, `-`, `_` and lower-to-upper case changes: `gpg.passphrase`,
// `sonatypeToken`, `signing_key`, `apiKey`. One of these words makes it a secret's name
// (`keyname` is one word, not `key`: gpg.keyname is a key's id, printed as is).
const secretWords = new Set(['password', 'passwd', 'pwd', 'passphrase', 'secret', 'token', 'key', 'credentials', 'credential', 'privatekey']);

export function isSecretName(name: string): boolean {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[\s._:-]+/);
  return words.some((w) => secretWords.has(w));
}

const reference = /^\$\{[^}]+\}$/;

/** `scheme://user:password@` → `scheme://user:***@`; a bare token as user (`https://ghp_…@`) is masked too. */
export function maskUrlCredentials(text: string): string {
  return text.replace(/\b([a-zA-Z][a-zA-Z0-9+.-]*:\/\/)([^\s/@:<>"'`]*)(?::([^\s/@<>"'`]*))?@(?=[^\s/@<>"'`])/g, (whole, scheme: string, user: string, password: string | undefined) => {
    if (password === undefined) return user.length >= 20 ? `${scheme}***@` : whole; // a user name, or a token used as one
    if (password === '' || reference.test(password)) return whole;
    return `${scheme}${user}:***@`;
  });
}

// In a settings file these hold secrets whatever their parents (`<value>`: an HTTP header's).
const settingsSecretElements = new Set(['password', 'passphrase', 'privateKey', 'value']);
const element = /<([A-Za-z_][\w.:-]*)>([^<]*)<\/\1>/g;
// `name=value` / `name: value` lines (properties files, gradle.properties), in a diff with its +/-/space prefix.
const propertyLine = /^([+\- ]?[ \t]*)([A-Za-z_][\w.-]*)([ \t]*[=:][ \t]*)(\S[^\r\n]*)$/gm;

export interface MaskOptions {
  /** A Maven settings file: its `<password>`, `<passphrase>`, `<privateKey>` and `<value>` too. */
  settings?: boolean;
}

/** Masks every secret in text read from a descriptor (XML elements, property lines, URL credentials). */
export function maskSecrets(text: string, options: MaskOptions = {}): string {
  const masked = text
    .replace(element, (whole, name: string, value: string) => {
      const secret = isSecretName(name) || (options.settings === true && settingsSecretElements.has(name));
      return !secret || value.trim() === '' || reference.test(value.trim()) ? whole : `<${name}>***</${name}>`;
    })
    .replace(propertyLine, (whole, lead: string, name: string, sep: string, value: string) =>
      !isSecretName(name) || reference.test(value.trim()) || /^["']?\$\{/.test(value.trim()) ? whole : `${lead}${name}${sep}***`,
    );
  return maskUrlCredentials(masked);
}
