import { escapeHtml } from './respond.js';
import type { PrimaryEntry } from './key-directory.js';

/** Small HTML pages of the primary key server, shaped after keys.openpgp.org's upload flow. */
function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)} · sandbox key server</title>
<style>body{font-family:sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem}textarea{width:100%;height:14rem;font-family:monospace}code{word-break:break-all}</style>
</head><body><h1>${escapeHtml(title)}</h1>
${body}
</body></html>
`;
}

export function indexPage(base: string): string {
  return page('Sandbox key server', `<p>A local stand-in for keys.openpgp.org. <a href="${escapeHtml(base)}/upload">Upload your public key</a>.</p>`);
}

export function uploadForm(base: string, error?: string): string {
  const message = error === undefined ? '' : `<p role="alert" class="error">${escapeHtml(error)}</p>`;
  return page(
    'Upload your public key',
    `${message}<form method="post" action="${escapeHtml(base)}/upload" enctype="application/x-www-form-urlencoded">
<label for="keytext">ASCII-armored public key (<code>gpg --armor --export &lt;fingerprint&gt;</code>)</label>
<textarea id="keytext" name="keytext" required></textarea>
<p><button type="submit">Upload</button></p>
</form>`,
  );
}

export function uploadResult(base: string, entry: PrimaryEntry, token: string): string {
  const rows = Object.entries(entry.addresses)
    .map(([address, status]) => {
      const action =
        status === 'published'
          ? ''
          : `<form method="post" action="${escapeHtml(base)}/upload/request-verify" style="display:inline">
<input type="hidden" name="token" value="${escapeHtml(token)}"><input type="hidden" name="address" value="${escapeHtml(address)}">
<button type="submit">Send verification email</button></form>`;
      return `<li><span class="address">${escapeHtml(address)}</span>: <span class="status">${escapeHtml(status)}</span> ${action}</li>`;
    })
    .join('\n');
  return page(
    'Key uploaded',
    `<p>Fingerprint: <code class="fingerprint">${entry.fingerprint}</code></p>
<p>The key is published by fingerprint. Its addresses are found (and shown in the key) only after you confirm them by e-mail.</p>
<ul>${rows || '<li>This key has no e-mail address.</li>'}</ul>`,
  );
}

export function verificationSent(address: string): string {
  return page('Verification email sent', `<p>A confirmation link was mailed to <strong>${escapeHtml(address)}</strong>. Follow it to publish this address.</p>`);
}

export function verified(entry: PrimaryEntry, address: string): string {
  return page('Address verified', `<p>Your key <code>${entry.fingerprint}</code> is now published for the identity <strong>${escapeHtml(address)}</strong>.</p>`);
}

export function errorPage(title: string, message: string): string {
  return page(title, `<p role="alert" class="error">${escapeHtml(message)}</p>`);
}
