/**
 * Secrets that relctl did not put in a file but may print from it: a URL's credentials
 * (`https://user:password@host`), and values whose names say they are secret (`<gpg.passphrase>`,
 * `<sonatypeToken>`, `signing.password=`, a settings `<privateKey>`). Masked as `***` wherever text
 * read from a file is shown: a `--dry-run` diff's context lines, finding messages, reports. An XML
 * descriptor's are found by parsing it (core/xml-secrets.ts); these patterns serve the rest.
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

/** A value that is a whole `${…}` reference: it names a variable, not its value. */
export const reference = /^\$\{[^}]+\}$/;

/** `scheme://user:password@` → `scheme://user:***@`; a bare token as user (`https://ghp_…@`) is masked too. */
export function maskUrlCredentials(text: string): string {
  return text.replace(/\b([a-zA-Z][a-zA-Z0-9+.-]*:\/\/)([^\s/@:<>"'`]*)(?::([^\s/@<>"'`]*))?@(?=[^\s/@<>"'`])/g, (whole, scheme: string, user: string, password: string | undefined) => {
    if (password === undefined) return user.length >= 20 ? `${scheme}***@` : whole; // a user name, or a token used as one
    if (password === '' || reference.test(password)) return whole;
    return `${scheme}${user}:***@`;
  });
}

const element = /<([A-Za-z_][\w.:-]*)>([^<]*)<\/\1>/g;
// `name=value` / `name: value` lines (properties files, gradle.properties), in a diff with its +/-/space prefix.
const propertyLine = /^([+\- ]?[ \t]*)([A-Za-z_][\w.-]*)([ \t]*[=:][ \t]*)(\S[^\r\n]*)$/gm;

/**
 * Masks the secrets a pattern can see in text read from a descriptor: simple secret-named XML
 * elements, property lines, URL credentials. An XML descriptor is parsed first
 * (core/xml-secrets.ts): comments, CDATA and spaced tags hide values from these patterns.
 */
export function maskSecrets(text: string): string {
  const masked = text
    .replace(element, (whole, name: string, value: string) =>
      !isSecretName(name) || value.trim() === '' || reference.test(value.trim()) ? whole : `<${name}>***</${name}>`,
    )
    .replace(propertyLine, (whole, lead: string, name: string, sep: string, value: string) =>
      !isSecretName(name) || reference.test(value.trim()) || /^["']?\$\{/.test(value.trim()) ? whole : `${lead}${name}${sep}***`,
    );
  return maskUrlCredentials(masked);
}
