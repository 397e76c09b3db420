import { EnvironmentError } from '../core/errors.js';
import type { HttpClient } from '../io/http.js';

/**
 * Sends an armored public key to an HKP key server (`POST <server>/pks/add`, form field
 * `keytext`). relctl makes this call itself instead of `gpg --send-keys`: gpg's dirmngr keeps
 * only the scheme, host and port of --keyserver, so a server URL with a path (a proxy prefix,
 * the sandbox's /keys2) would silently receive the key at the wrong place.
 */
export function hkpAddUrl(server: string): string {
  return `${server.replace(/\/+$/, '')}/pks/add`;
}

export async function sendKeyHkp(http: HttpClient, server: string, armored: string): Promise<void> {
  const url = hkpAddUrl(server);
  const res = await http.request({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ keytext: armored }).toString(),
  });
  if (res.status < 200 || res.status >= 300) {
    const said = res.text().trim().slice(0, 200);
    throw new EnvironmentError(`The key server ${server} refused the key: POST ${url} answered HTTP ${res.status}${said === '' ? '' : ` (${said})`}.`, {
      kind: 'key-send-failed',
      fix: `Check --secondary-keyserver-url (${server}) and try again, or upload the key in the server's web form.`,
    });
  }
}
