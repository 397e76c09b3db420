import type { ReceivedMail } from '../smtp/index.js';
import type { DeploymentRecord } from './records.js';

function esc(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

const style = `
body{font:15px/1.45 system-ui,sans-serif;margin:0;background:#f5f6f8;color:#1d2330}
header{background:#1d2330;color:#fff;padding:14px 28px;display:flex;justify-content:space-between;align-items:center}
header h1{font-size:18px;margin:0}main{max-width:1100px;margin:24px auto;padding:0 20px}
.note{color:#5a6275;margin:0 0 18px}.empty{padding:40px;text-align:center;color:#5a6275}
article{background:#fff;border:1px solid #dde1e8;border-radius:8px;padding:16px 20px;margin-bottom:16px}
.top{display:flex;justify-content:space-between;align-items:flex-start;gap:16px}
h2{font-size:16px;margin:0 0 4px;word-break:break-all}.meta{color:#5a6275;font-size:13px}
.state{display:inline-block;font-weight:600;font-size:12px;padding:3px 9px;border-radius:12px;letter-spacing:.03em}
.VALIDATED{background:#e3f4e8;color:#17663a}.PUBLISHED{background:#e2ecfb;color:#1e4f9c}
.FAILED{background:#fde7e7;color:#a11d1d}.PUBLISHING,.VALIDATING,.PENDING{background:#fff4d6;color:#7a5600}
table{border-collapse:collapse;width:100%;margin-top:12px;font-size:13px}
th,td{text-align:left;padding:6px 8px;border-top:1px solid #eef0f4;vertical-align:top}
th{color:#5a6275;font-weight:600}code{font-size:12px}ul{margin:0;padding-left:18px}
.tag{display:inline-block;font-size:11px;color:#5a6275;background:#eef0f4;border-radius:4px;padding:0 5px;margin-left:2px}
.err{color:#a11d1d}.actions{display:flex;gap:8px;flex-shrink:0;align-items:center}
button{font:inherit;font-size:14px;padding:6px 16px;border-radius:6px;border:1px solid transparent;cursor:pointer}
button.publish{background:#17663a;color:#fff}button.drop{background:#fff;color:#a11d1d;border-color:#a11d1d}
button:disabled{opacity:.5;cursor:wait}#message{color:#a11d1d;min-height:1.2em}
#mailbox h2{margin:28px 0 10px}pre{white-space:pre-wrap;font-size:12px;background:#f5f6f8;padding:8px;border-radius:6px;margin:8px 0 0}`;

// Plain fetch against the Publisher API; the browser re-sends the portal realm's credentials.
const script = `
for (const b of document.querySelectorAll('button[data-action]')) {
  b.addEventListener('click', async () => {
    for (const x of document.querySelectorAll('button')) x.disabled = true;
    const method = b.dataset.action === 'publish' ? 'POST' : 'DELETE';
    const r = await fetch('../api/v1/publisher/deployment/' + b.dataset.id, { method });
    if (r.ok) { location.reload(); return; }
    const body = await r.text();
    document.getElementById('message').textContent = b.dataset.action + ' failed (' + r.status + '): ' + body;
    for (const x of document.querySelectorAll('button')) x.disabled = false;
  });
}`;

function component(c: DeploymentRecord['components'][number]): string {
  // One line per artifact, its signature and checksums beside it: easier to spot what is missing.
  const names = new Set(c.files.map((f) => f.split('/').pop() ?? f));
  const companions = ['.asc', '.md5', '.sha1', '.sha256', '.sha512'];
  const files = [...names]
    .filter((n) => !companions.some((x) => n.endsWith(x)))
    .map((n) => {
      const extra = companions.filter((x) => names.has(n + x)).map((x) => `<span class="tag">${x.slice(1)}</span>`).join('');
      return `<li><code>${esc(n)}</code> ${extra}</li>`;
    })
    .join('');
  const errors =
    c.errors.length === 0 ? '<span class="meta">none</span>' : `<ul>${c.errors.map((e) => `<li class="err">${esc(e)}</li>`).join('')}</ul>`;
  return `<tr><td><code>${esc(c.purl)}</code><div class="meta">packaging ${esc(c.packaging)}</div></td><td><ul>${files}</ul></td><td>${errors}</td></tr>`;
}

function deployment(d: DeploymentRecord): string {
  const buttons = [
    d.state === 'VALIDATED' ? `<button class="publish" data-action="publish" data-id="${esc(d.id)}">Publish</button>` : '',
    d.state === 'VALIDATED' || d.state === 'FAILED' ? `<button class="drop" data-action="drop" data-id="${esc(d.id)}">Drop</button>` : '',
  ].join('');
  return `<article data-deployment="${esc(d.id)}" data-state="${esc(d.state)}">
<div class="top"><div><h2>${esc(d.name)}</h2>
<div class="meta">Deployment ID <code>${esc(d.id)}</code> · created ${esc(d.createdAt.replace('T', ' ').slice(0, 19))} UTC</div></div>
<div class="actions"><span class="state ${esc(d.state)}">${esc(d.state)}</span>${buttons}</div></div>
<table><thead><tr><th>Component</th><th>Expected artifacts</th><th>Errors</th></tr></thead>
<tbody>${d.components.map(component).join('')}</tbody></table></article>`;
}

function mail(m: ReceivedMail): string {
  return `<article class="mail"><h2>${esc(m.subject)}</h2>
<div class="meta">from <code>${esc(m.from)}</code> to <code>${esc(m.to.join(', '))}</code> · ${esc(m.date.replace('T', ' ').slice(0, 19))} UTC</div>
<pre>${esc(m.text)}</pre></article>`;
}

/** The sandbox's SMTP mailbox (what relctl notify sent), newest first: not part of the real portal. */
function mailbox(mails: readonly ReceivedMail[]): string {
  const items = mails.length === 0 ? '<p class="empty">No mail received.</p>' : [...mails].reverse().map(mail).join('\n');
  return `<section id="mailbox"><h2>Sandbox mailbox</h2>\n${items}</section>`;
}

/** The portal's Deployments list for one account, newest first, and the sandbox mailbox below. */
export function deploymentsPage(user: string, deployments: readonly DeploymentRecord[], mails: readonly ReceivedMail[] = []): string {
  const body = deployments.length === 0 ? '<p class="empty">No deployments yet.</p>' : deployments.map(deployment).join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Deployments · relctl sandbox portal</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><style>${style}</style></head>
<body><header><h1>Publishing · Deployments</h1><span>${esc(user)}</span></header>
<main><p class="note">relctl sandbox: review each deployment's components and expected artifacts, then Publish or Drop it.</p>
<p id="message" role="alert"></p>
${body}
${mailbox(mails)}
</main><script>${script}</script></body></html>`;
}
