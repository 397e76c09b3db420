// The element tree the XML scanner (xml-scanner.ts) builds and parseXml (xml.ts) returns: apart from
// both, so that the scanner does not import the module that calls it.

/** A parsed XML element reduced to what the POM and settings models need. */
export interface XmlElement {
  /** Local name (a namespace prefix is dropped). */
  name: string;
  /** Trimmed text content (entities and CDATA resolved); '' when the element has only children. */
  text: string;
  /** 1-based line of the start tag. */
  line: number;
  children: XmlElement[];
  /**
   * Offsets into the scanned text (UTF-16, a BOM counted), for `preflight --fix`'s text edits:
   * `start` at the `<` of the start tag, `contentStart` after its `>`, `contentEnd` at the `<` of
   * the end tag, `end` after its `>`. An empty-element tag (`<a/>`) has contentStart = contentEnd = end.
   */
  start: number;
  contentStart: number;
  contentEnd: number;
  end: number;
}

export type XmlParseResult = { ok: true; root: XmlElement } | { ok: false; message: string; line?: number };
