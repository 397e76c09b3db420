import { maskedUser, repositoryKeySuffix } from './identifiers.js';

const maskedKeyUser = new RegExp(`\\*\\*\\*/(?=[0-9A-Fa-f:.]+/[^\\s/]+${repositoryKeySuffix})`, 'g');

/**
 * A last line of defence for secrets: every byte relctl writes to a terminal, a log or the
 * journal passes through a Redactor. Code must not rely on it (secrets stay out of messages by
 * construction); tests push a canary token through every command and grep for it.
 */
export class Redactor {
  private readonly secrets = new Set<string>();

  /** Registers a secret and the encodings it travels in (base64 of user:password, URL-encoding). */
  add(...values: (string | undefined)[]): void {
    for (const v of values) {
      // Very short values would redact ordinary words; a token half is never this short.
      if (v === undefined || v.length < 4) continue;
      this.secrets.add(v);
      // Both the lenient (encodeURIComponent keeps !'()*) and the strict percent-encoding.
      this.secrets.add(encodeURIComponent(v));
      this.secrets.add(v.replace(/[^A-Za-z0-9]/g, (ch) => encodeURIComponent(ch).replace(/[!'()*]/g, (x) => `%${x.charCodeAt(0).toString(16).toUpperCase()}`)));
    }
  }

  addToken(username: string, password: string): void {
    this.add(username, password, Buffer.from(`${username}:${password}`).toString('base64'));
  }

  /**
   * Every string in a plain value (a report) redacted, for a renderer that escapes them into its
   * format (JUnit's XML, GitHub's `%0A`, JSON): escaped, a secret with `"`, `&` or `%` in it would
   * no longer match the last pass over the printed bytes.
   */
  redactValues<T>(value: T): T {
    const walk = (v: unknown): unknown => {
      if (typeof v === 'string') return this.redact(v);
      if (Array.isArray(v)) return v.map(walk);
      if (v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
      return v;
    };
    return walk(value) as T;
  }

  redact(text: string): string {
    let out = text;
    // Longest first so a secret that contains another is masked whole.
    for (const s of [...this.secrets].sort((a, b) => b.length - a.length)) {
      if (out.includes(s)) out = out.split(s).join('***');
    }
    // A staging repository key starts with the token's username: masked, it reads `<token user>/…`
    // (a bare `***/127.0.0.1/…` looked like a fault), and still works as --repository-key input.
    return out.includes('***/') ? out.replace(maskedKeyUser, `${maskedUser}/`) : out;
  }
}
