/**
 * The settings side of the Maven fixes (DESIGN §4, Fixes): `server-id-mismatch` /
 * `missing-credentials` add a `<server>` whose credentials are `${env.NAME}` references (never a
 * value), and a legacy repository id moves to `central` in the settings file together with the POM.
 * A release id's server goes to the settings file the release reads, a snapshot id's to the one
 * snapshots deploy with (maven-settings-target.ts); a new file is created (mode 600 by the writer).
 */
import type { FixDeclined, FixEdit, FixPlan } from '../../core/fix/types.js';
import { appendLast, insertAfter, insertFirst, lastOf, renderElements, renderInline, replaceText, type NewElement } from '../../core/fix/xml-text.js';
import type { Finding } from '../../core/findings.js';
import type { FixContext, FixRule } from './types.js';
import { readXml } from './xml-fix-support.js';
import { neverDeployed } from './never-deployed.js';
import { declined as declinedAt, editOf, insertEdit, oneLine } from './edits.js';
import { child } from '../../core/pom/xml.js';
import { releaseSettings, serverVariables, snapshotSettings, type SettingsTarget } from './maven-settings-target.js';

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
  const target = releaseSettings(ctx);
  if (target === undefined) return { ok: false, why: 'relctl found no Maven settings to change with it' };
  const settings = target.facts;
  for (const alt of ctx.facts.maven?.settings.alternatives ?? []) {
    if (alt === settings) continue;
    if (alt.servers.some((s) => s.id === oldId)) return { ok: false, why: `${alt.file} (passed with -s by ${alt.via ?? 'a CI script'}) also has a <server> "${oldId}", and relctl edits only ${target.name}` };
  }
  // A plugin that authenticates with the old id (nexus-staging's <serverId>) would lose its server.
  for (const m of ctx.facts.maven?.modules ?? []) {
    const plugin = m.raw.plugins.find((p) => p.config.some((c) => c.path === 'serverId' && c.value === oldId));
    if (plugin !== undefined) return { ok: false, why: `${plugin.artifactId} in ${m.file} (line ${plugin.line}) authenticates with <serverId>${oldId}</serverId> too` };
  }
  if (!settings.found) return { ok: true, edits: [] };
  const doc = readXml(ctx, target.name);
  if (doc === undefined) return { ok: false, why: `${target.name} could not be parsed` };
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

/** The findings the distribution fix (maven-distribution.ts) acts on. */
export const distributionCodes = ['legacy-staging-host', 'distribution-url', 'missing-distribution', 'legacy-staging-id'] as const;

/** A repository id the fixed build deploys to, with the id it has today. */
interface DeployId {
  id: string;
  original: string | undefined;
  /** The snapshot repository's (deployed with the snapshot settings file). */
  snapshot: boolean;
}

/**
 * The repository ids the build deploys to once the distribution fixes are made (release and
 * snapshot), each with the id it has today: a legacy id that moves with its server becomes
 * `central`, a missing release repository is declared as `central` (maven-distribution.ts).
 */
function deployIdsAfterFix(ctx: FixContext): DeployId[] {
  const eff = ctx.facts.maven?.modules[0]?.effective;
  if (eff === undefined) return [];
  const out: DeployId[] = [];
  const release = eff.repository?.id?.value;
  const renamable = (id: string): string => (isLegacyId(id) && renameServer(ctx, id).ok ? NEW_REPOSITORY_ID : id);
  if (release === undefined) {
    // Only when the distribution fix declares one (not in a POM the release never deploys).
    const maven = ctx.facts.maven!;
    const declares = ctx.findings.some((f) => f.code === 'missing-distribution' && maven.modules.some((m) => m.file === f.file && neverDeployed(maven, m) === undefined));
    if (declares) out.push({ id: NEW_REPOSITORY_ID, original: undefined, snapshot: false });
  } else if (!release.includes('${')) out.push({ id: ctx.findings.some((f) => f.code === 'legacy-staging-id') ? renamable(release) : release, original: release, snapshot: false });
  // Every module's snapshot repository: a module may declare its own (issue 42 item 5).
  const snapshots = new Set(ctx.facts.maven!.modules.map((m) => m.effective.snapshotRepository?.id?.value));
  for (const snapshot of [eff.snapshotRepository?.id?.value, ...snapshots]) {
    if (snapshot === undefined || snapshot.includes('${') || out.some((o) => o.snapshot && o.original === snapshot)) continue;
    const moves = ctx.findings.some((f) => f.code === 'legacy-staging-id') || (snapshot === release && out[0]?.id !== release);
    out.push({ id: moves ? renamable(snapshot) : snapshot, original: snapshot, snapshot: true });
  }
  return out;
}

/** An id that needs a `<server>`: the finding it answers, the id it has today, and whether it is implied by the fixed build only. */
interface Wanted {
  id: string;
  finding: Finding;
  original: string | undefined;
  /** Added because the fixed build deploys to it (no finding names it): said nothing about when it exists. */
  quiet: boolean;
}

export const mavenServerFix: FixRule = {
  codes: ['server-id-mismatch', 'missing-credentials', ...distributionCodes],
  plan(ctx) {
    const declined: FixDeclined[] = [];
    const maven = ctx.facts.maven;
    const release = releaseSettings(ctx);
    const snapshots = snapshotSettings(ctx);
    if (maven === undefined || release === undefined || snapshots === undefined) return { edits: [], declined };
    const releaseId = maven.modules[0]?.effective.repository?.id?.value;
    const wanted = new Map<string, Wanted>();
    for (const f of ctx.findings) {
      if (f.code === 'server-id-mismatch') {
        const id = idOf(f);
        if (id === undefined || id.includes('${')) declined.push(declinedAt(f.code, `relctl could not tell which server id it means. ${f.fix}`));
        else if (!wanted.has(idAfterFix(ctx, id))) wanted.set(idAfterFix(ctx, id), { id: idAfterFix(ctx, id), finding: f, original: id, quiet: false });
      } else if (f.code === 'missing-credentials') {
        const id = releaseId === undefined || releaseId.includes('${') ? NEW_REPOSITORY_ID : idAfterFix(ctx, releaseId);
        if (!wanted.has(id)) wanted.set(id, { id, finding: f, original: releaseId, quiet: false });
      }
    }
    // Every id the fixed build deploys to has a <server> (release and snapshot), in the settings
    // file it deploys with: the one the distribution fix declares or keeps gets one too, in the same run.
    const toSnapshots = new Set<string>();
    const cause = ctx.findings.find((f) => (distributionCodes as readonly string[]).includes(f.code) || f.code === 'server-id-mismatch' || f.code === 'missing-credentials');
    if (!maven.tokenFromEnv && cause !== undefined) {
      for (const { id, original, snapshot } of deployIdsAfterFix(ctx)) {
        if (wanted.has(id)) continue;
        if ((snapshot ? snapshots : release).facts.servers.some((s) => s.id === id || s.id === original)) continue;
        if (snapshot) toSnapshots.add(id);
        wanted.set(id, { id, finding: cause, original, quiet: true });
      }
    }
    const all = [...wanted.values()];
    const apart = snapshots.name !== release.name;
    // A server for an id the POM does not have yet is for the distribution fix's edit of these POMs: made with it or not at all.
    const poms = [...new Set(ctx.findings.filter((f) => (distributionCodes as readonly string[]).includes(f.code) && maven.modules.some((m) => m.file === f.file)).map((f) => f.file!))];
    const partner = { files: poms, codes: distributionCodes };
    const plans = [serversIn(ctx, release, all.filter((w) => !apart || !toSnapshots.has(w.id)), partner), serversIn(ctx, snapshots, apart ? all.filter((w) => toSnapshots.has(w.id)) : [], partner)];
    return { edits: plans.flatMap((p) => p.edits), declined: [...declined, ...plans.flatMap((p) => p.declined)] };
  },
};

/**
 * The `<server>`s `wanted` lacks in `target`: one edit adding them, or why not (a server there
 * that does not work). The edit goes `with` the POM change when one of them is for an id only that change declares.
 */
function serversIn(ctx: FixContext, target: SettingsTarget, wanted: readonly Wanted[], partner: NonNullable<FixEdit['with']>): FixPlan {
  const edits: FixEdit[] = [];
  const declined: FixDeclined[] = [];
  if (wanted.length === 0) return { edits, declined };
  const { facts: settings, name: settingsName } = target;
  const doc = settings.found ? readXml(ctx, settingsName) : undefined;
  if (settings.found && doc === undefined) {
    for (const w of wanted) declined.push(declinedAt(w.finding.code, `${settingsName} could not be parsed; fix it first. ${w.finding.fix}`, { file: settingsName }));
    return { edits, declined };
  }
  const present = doc === undefined ? [] : (child(doc.root, 'servers')?.children.filter((s) => s.name === 'server') ?? []);
  const serverNamed = (sid: string | undefined) => (sid === undefined ? undefined : present.find((s) => child(s, 'id')?.text === sid));
  const vars = serverVariables(ctx, target, present);
  const add: NewElement[] = [];
  let needsPom = false;
  for (const { id, finding: f, original, quiet } of wanted) {
    // A legacy server renamed to `central` by this same fix is the one the id will name: never add a second.
    const existing = serverNamed(id) ?? (original !== id ? serverNamed(original) : undefined);
    // An id added for the fixed build whose server turns out to exist: nothing to add, nothing to say.
    if (existing !== undefined && quiet) continue;
    // The id moved to one whose server already works (a legacy id renamed to `central`): nothing to add.
    const known = settings.servers.find((s) => s.id === id);
    if (existing !== undefined && known !== undefined && known.username !== undefined && known.password !== undefined && known.unsetEnv.length === 0 && id !== idOf(f)) continue;
    if (existing !== undefined) {
      // A server that exists but does not work needs a person: its values or the variables they name.
      const named = child(existing, 'id')?.text ?? id;
      const renamed = named === id ? '' : ` (renamed to "${id}" by this fix)`;
      const unset = (known ?? settings.servers.find((s) => s.id === named))?.unsetEnv ?? [];
      const passed =
        target.ci === undefined ? '' : target.snapshotsOnly === true ? ` (the file ${target.ci} passes to mvn with -s to deploy snapshots)` : ` (the file ${target.ci} passes to mvn with -s, so the release reads it and not ~/.m2/settings.xml)`;
      const todo = unset.length > 0 ? `set ${unset.join(' and ')} to the portal user token where ${target.snapshotsOnly === true ? 'snapshots deploy' : 'the release runs'} (in CI: from its secrets)` : f.fix;
      declined.push(declinedAt(f.code, `${settingsName}${passed} already has a <server> "${named}"${renamed}, so there is nothing to add; relctl does not change its credentials: ${todo}`, { file: settingsName, line: existing.line }));
      continue;
    }
    // A server only the fixed build needs (no finding names it) is made with the distribution fix's POM
    // edits or not at all; where no POM is edited, the build as it is needs it and it stands alone.
    needsPom ||= (quiet && partner.files.length > 0) || original === undefined || (original !== id && !original.includes('${'));
    add.push({
      name: 'server',
      children: [
        { name: 'id', text: id },
        { name: 'username', text: `\${env.${vars.username}}` },
        { name: 'password', text: `\${env.${vars.password}}` },
      ],
    });
  }
  if (add.length === 0) return { edits, declined };
  const code = wanted[0]!.finding.code;
  let edit: FixEdit;
  if (doc === undefined) edit = insertEdit({ file: settingsName, text: '' }, 0, newSettingsFile(add), code, renderInline(add));
  else {
    const servers = child(doc.root, 'servers');
    const after = lastOf(doc.root, beforeServers);
    const block: NewElement[] = [{ name: 'servers', children: add }];
    const e = servers !== undefined ? appendLast(doc, servers, add) : after === undefined ? insertFirst(doc, doc.root, block) : insertAfter(doc, doc.root, after, block);
    edit = editOf(doc.source, e, code, '', oneLine(e.replacement));
  }
  edits.push(needsPom ? { ...edit, with: partner } : edit);
  return { edits, declined };
}

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
