/**
 * The settings side of the Maven fixes (DESIGN §4, Fixes): `server-id-mismatch` /
 * `missing-credentials` add a `<server>` whose credentials are `${env.NAME}` references (never a
 * value), and a legacy repository id moves to `central` in the settings file together with the POM.
 * Only the one settings file preflight used is edited; a new one is created (mode 600 by the writer).
 */
import type { FixDeclined, FixEdit } from '../../core/fix/types.js';
import { appendLast, insertAfter, insertFirst, lastOf, renderElements, renderInline, replaceText, type NewElement } from '../../core/fix/xml-text.js';
import type { Finding } from '../../core/findings.js';
import type { FixContext, FixRule } from './types.js';
import { readXml } from './xml-fix-support.js';
import { declined as declinedAt, editOf, insertEdit, oneLine } from './edits.js';
import { child } from '../../core/pom/xml.js';
import { CENTRAL_SNAPSHOTS_URL, legacyHostOf } from '../maven-support.js';

/** The id the portal's documentation uses; the one a legacy id moves to. */
export const NEW_REPOSITORY_ID = 'central';
const legacyIds = new Set(['sonatype-nexus-staging', 'ossrh']);

export function isLegacyId(id: string): boolean {
  return legacyIds.has(id);
}

// settings.xml's canonical order: <servers> comes after these.
const beforeServers = ['localRepository', 'interactiveMode', 'usePluginRegistry', 'offline', 'proxies'];

type Rename = { ok: true; edits: FixEdit[] } | { ok: false; why: string };

/**
 * The settings edits that move `<server>` `oldId` to `central`, or why they cannot be made.
 * No server with the old id (or one named `central` already): nothing to change in the settings.
 */
export function renameServer(ctx: FixContext, oldId: string): Rename {
  const settings = ctx.facts.maven?.settings;
  if (settings === undefined) return { ok: false, why: 'relctl found no Maven settings to change with it' };
  for (const alt of settings.alternatives ?? []) {
    if (alt.servers.some((s) => s.id === oldId)) return { ok: false, why: `${alt.file} (passed with -s by ${alt.via ?? 'a CI script'}) also has a <server> "${oldId}", and relctl edits only ${settings.file}` };
  }
  // A plugin that authenticates with the old id (nexus-staging's <serverId>) would lose its server.
  for (const m of ctx.facts.maven?.modules ?? []) {
    const plugin = m.raw.plugins.find((p) => p.config.some((c) => c.path === 'serverId' && c.value === oldId));
    if (plugin !== undefined) return { ok: false, why: `${plugin.artifactId} in ${m.file} (line ${plugin.line}) authenticates with <serverId>${oldId}</serverId> too` };
  }
  if (!settings.found) return { ok: true, edits: [] };
  const doc = readXml(ctx, settings.file);
  if (doc === undefined) return { ok: false, why: `${settings.file} could not be parsed` };
  const servers = child(doc.root, 'servers')?.children.filter((s) => s.name === 'server') ?? [];
  if (servers.some((s) => child(s, 'id')?.text === NEW_REPOSITORY_ID)) return { ok: true, edits: [] };
  const edits = servers
    .map((s) => child(s, 'id'))
    .filter((id) => id?.text === oldId)
    .map((id) => editOf(doc.source, replaceText(doc.text, id!, NEW_REPOSITORY_ID), 'legacy-staging-id', oldId, NEW_REPOSITORY_ID));
  return { ok: true, edits };
}

/** The server id a server-id-mismatch finding is about (the check names it as its subject). */
function idOf(f: Finding): string | undefined {
  return f.subject;
}

/** The id the release repository will have after the fix (a legacy id moves to `central` when it can). */
function idAfterFix(ctx: FixContext, id: string): string {
  if (!isLegacyId(id) || !ctx.findings.some((f) => f.code === 'legacy-staging-id')) return id;
  return renameServer(ctx, id).ok ? NEW_REPOSITORY_ID : id;
}

export const mavenServerFix: FixRule = {
  codes: ['server-id-mismatch', 'missing-credentials'],
  plan(ctx) {
    const edits: FixEdit[] = [];
    const declined: FixDeclined[] = [];
    const maven = ctx.facts.maven;
    if (maven === undefined) return { edits, declined };
    const settings = maven.settings;
    const wanted = new Map<string, Finding>();
    for (const f of ctx.findings) {
      if (f.code === 'server-id-mismatch') {
        const id = idOf(f);
        if (id === undefined || id.includes('${')) declined.push(declinedAt(f.code, `relctl could not tell which server id it means. ${f.fix}`));
        else if (!wanted.has(idAfterFix(ctx, id))) wanted.set(idAfterFix(ctx, id), f);
      } else if (f.code === 'missing-credentials') {
        const id = maven.modules[0]?.effective.repository?.id?.value;
        const target = id === undefined || id.includes('${') ? NEW_REPOSITORY_ID : idAfterFix(ctx, id);
        if (!wanted.has(target)) wanted.set(target, f);
      }
    }
    if (wanted.size === 0) return { edits, declined };
    // The fixed build deploys snapshots to Central's snapshots repository under the
    // <snapshotRepository> id: when that id differs from the release one, it needs its <server> too.
    const snapshotIds = new Set<string>();
    const snapshot = maven.modules[0]?.effective.snapshotRepository;
    const snapshotUrl = snapshot?.url?.value;
    const snapshotId = snapshot?.id?.value;
    if (snapshotId !== undefined && !snapshotId.includes('${') && snapshotUrl !== undefined && (legacyHostOf(snapshotUrl) !== undefined || snapshotUrl === CENTRAL_SNAPSHOTS_URL)) {
      const id = idAfterFix(ctx, snapshotId);
      if (!wanted.has(id) && !settings.servers.some((x) => x.id === id)) {
        wanted.set(id, [...wanted.values()][0]!);
        snapshotIds.add(id);
      }
    }
    const doc = settings.found ? readXml(ctx, settings.file) : undefined;
    if (settings.found && doc === undefined) {
      for (const f of wanted.values()) declined.push(declinedAt(f.code, `${settings.file} could not be parsed; fix it first. ${f.fix}`, { file: settings.file }));
      return { edits, declined };
    }
    const add: NewElement[] = [];
    const serverNamed = (sid: string | undefined) =>
      sid === undefined || doc === undefined ? undefined : child(doc.root, 'servers')?.children.find((s) => s.name === 'server' && child(s, 'id')?.text === sid);
    for (const [id, f] of wanted) {
      // A legacy server renamed to `central` by this same fix is the one the id will name: never add a second.
      const original = snapshotIds.has(id) ? id : f.code === 'server-id-mismatch' ? idOf(f) : maven.modules[0]?.effective.repository?.id?.value;
      const existing = serverNamed(id) ?? (original !== id ? serverNamed(original) : undefined);
      // The id moved to one whose server already works (a legacy id renamed to `central`): nothing to add.
      const known = settings.servers.find((s) => s.id === id);
      if (existing !== undefined && known !== undefined && known.username !== undefined && known.password !== undefined && known.unsetEnv.length === 0 && id !== idOf(f)) continue;
      if (existing !== undefined) {
        // A server that exists but does not work needs a person: its values or the variables they name.
        const named = child(existing, 'id')?.text ?? id;
        const renamed = named === id ? '' : ` (renamed to "${id}" by this fix)`;
        declined.push(declinedAt(f.code, `${settings.file} already has a <server> "${named}"${renamed}; relctl does not change its credentials. ${f.fix}`, { file: settings.file, line: existing.line }));
        continue;
      }
      add.push({
        name: 'server',
        children: [
          { name: 'id', text: id },
          { name: 'username', text: `\${env.${ctx.options.usernameVariable}}` },
          { name: 'password', text: `\${env.${ctx.options.passwordVariable}}` },
        ],
      });
    }
    if (add.length === 0) return { edits, declined };
    const code = [...wanted.values()][0]!.code;
    if (doc === undefined) {
      const text = newSettingsFile(add);
      edits.push(insertEdit({ file: settings.file, text: '' }, 0, text, code, renderInline(add)));
      return { edits, declined };
    }
    const servers = child(doc.root, 'servers');
    const e =
      servers !== undefined
        ? appendLast(doc, servers, add)
        : ((after) => (after === undefined ? insertFirst(doc, doc.root, [{ name: 'servers', children: add }]) : insertAfter(doc, doc.root, after, [{ name: 'servers', children: add }])))(
            lastOf(doc.root, beforeServers),
          );
    edits.push(editOf(doc.source, e, code, '', oneLine(e.replacement)));
    return { edits, declined };
  },
};

function newSettingsFile(servers: NewElement[]): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<settings xmlns="http://maven.apache.org/SETTINGS/1.0.0"',
    '          xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"',
    '          xsi:schemaLocation="http://maven.apache.org/SETTINGS/1.0.0 https://maven.apache.org/xsd/settings-1.0.0.xsd">',
    `${renderElements([{ name: 'servers', children: servers }], '  ', '  ', '\n')}</settings>`,
    '',
  ].join('\n');
}
