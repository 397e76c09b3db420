/**
 * Secrets in a descriptor found by parsing it (DESIGN §3): the XML parser reads an element's value
 * through comments, CDATA, entities and spaces in its tags, where a pattern over the text misses
 * `<password><!--c-->x</password>`, `<passphrase >x</passphrase >` or `<![CDATA[x]]>`. Found
 * values are masked in the text before it is shown (a `--fix --dry-run` diff) and registered
 * with the redactor for everything else relctl prints.
 */
import { parseXml, type XmlElement } from './pom/xml.js';
import { isSecretName, maskSecrets, maskUrlCredentials, reference } from './secret-mask.js';

// In a settings file these hold secrets whatever their names say (`<value>`: an HTTP header's).
const settingsSecretElements = new Set(['password', 'passphrase', 'privateKey', 'value']);

/**
 * The elements holding a secret, in document order: leaves named like a secret (and, in a settings
 * file, the elements above) with a value, which may be a `${…}` reference to one.
 */
export function secretElements(root: XmlElement, options: { settings?: boolean } = {}): XmlElement[] {
  const found: XmlElement[] = [];
  const visit = (el: XmlElement): void => {
    if (el.children.length > 0) {
      for (const c of el.children) visit(c);
      return;
    }
    const secret = isSecretName(el.name) || (options.settings === true && settingsSecretElements.has(el.name));
    if (secret && el.text !== '') found.push(el);
  };
  visit(root);
  return found;
}

/**
 * A descriptor's text with each literal secret masked as `***` where it stands (a settings file is
 * known by its root), line breaks kept so a diff of it names the file's real lines, and URL
 * credentials masked. A `${…}` reference stays: it is what a person checks. Text that is not XML
 * (gradle.properties) gets the patterns of maskSecrets.
 */
export function maskDescriptorSecrets(text: string): string {
  const xml = parseXml(text);
  if (!xml.ok) return maskSecrets(text);
  let out = '';
  let at = 0;
  for (const el of secretElements(xml.root, { settings: xml.root.name === 'settings' })) {
    if (reference.test(el.text)) continue;
    out += text.slice(at, el.contentStart) + text.slice(el.contentStart, el.contentEnd).replace(/\S(?:[^\n]*\S)?/g, '***');
    at = el.contentEnd;
  }
  return maskUrlCredentials(out + text.slice(at));
}
