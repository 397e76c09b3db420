/**
 * The `[plugins]` of a Gradle version catalog (gradle/libs.versions.toml), enough to resolve
 * `alias(libs.plugins.x)` to a plugin id and version. A line-oriented reader of the TOML shapes
 * catalogs use, not a TOML parser. Pure; never throws.
 */
export interface CatalogPlugin {
  id: string;
  version?: string;
}

function unquote(v: string): string {
  const t = v.trim();
  return /^(["']).*\1$/.test(t) ? t.slice(1, -1) : t;
}

/** `{ id = "x", version.ref = "y" }` → { id: 'x', 'version.ref': 'y' }. */
function inlineTable(text: string): Map<string, string> {
  const out = new Map<string, string>();
  const body = text.trim().replace(/^\{/, '').replace(/\}\s*$/, '');
  for (const part of body.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    out.set(part.slice(0, eq).trim().replace(/["']/g, ''), unquote(part.slice(eq + 1)));
  }
  return out;
}

/** The accessor Gradle generates for a catalog key: `-`, `_` and `.` all become `.`. */
export function catalogAccessor(catalog: string, key: string): string {
  return `${catalog}.plugins.${key.replace(/[-_.]/g, '.')}`;
}

interface CatalogEntry {
  table: string;
  key: string;
  value: string;
}

/** The `key = value` lines of a catalog with the table each is in; `[versions]` gathered apart. */
function entries(text: string): { versions: Map<string, string>; list: CatalogEntry[] } {
  const versions = new Map<string, string>();
  const list: CatalogEntry[] = [];
  let table = '';
  for (const line of text.split(/\r?\n/)) {
    const l = line.replace(/\s+#.*$/, '').trim();
    if (l === '' || l.startsWith('#')) continue;
    const header = /^\[([^\]]+)\]$/.exec(l);
    if (header !== null) {
      table = header[1]!.trim();
      continue;
    }
    const eq = l.indexOf('=');
    if (eq < 0) continue;
    const key = l.slice(0, eq).trim().replace(/["']/g, '');
    const value = l.slice(eq + 1).trim();
    if (table === 'versions') versions.set(key, unquote(value));
    else list.push({ table, key, value });
  }
  return { versions, list };
}

/**
 * The version a catalog gives a library module (`group:artifact`) in `[libraries]`, as
 * `"g:a:v"`, `{ module = "g:a", version = "v" }` or `{ module = ..., version.ref = ... }`.
 */
export function catalogLibraryVersion(text: string, module: string): string | undefined {
  const { versions, list } = entries(text);
  const entry = list.find((e) => e.table === 'libraries' && e.value.includes(module));
  if (entry === undefined) return undefined;
  if (!entry.value.startsWith('{')) return unquote(entry.value).split(':')[2];
  const t = inlineTable(entry.value);
  return t.get('version') ?? versions.get(t.get('version.ref') ?? '');
}

/** Plugins by accessor (`libs.plugins.vanniktech.publish`). */
export function parseCatalogPlugins(text: string, catalog = 'libs'): Map<string, CatalogPlugin> {
  const { versions, list } = entries(text);
  const plugins = new Map<string, CatalogPlugin>();
  for (const { key, value } of list.filter((e) => e.table === 'plugins')) {
    let plugin: CatalogPlugin | undefined;
    if (value.startsWith('{')) {
      const t = inlineTable(value);
      const id = t.get('id');
      const version = t.get('version') ?? versions.get(t.get('version.ref') ?? '');
      if (id !== undefined) plugin = version === undefined ? { id } : { id, version };
    } else {
      const [id, version] = unquote(value).split(':');
      if (id !== undefined && id !== '') plugin = version === undefined ? { id } : { id, version };
    }
    if (plugin !== undefined) plugins.set(catalogAccessor(catalog, key), plugin);
  }
  return plugins;
}

/** `[versions]` by accessor (`libs.versions.my.lib` reads `my-lib`): key with `-`, `_`, `.` as `.`. */
export function catalogVersions(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of entries(text).versions) out.set(key.replace(/[-_.]/g, '.'), value);
  return out;
}
