/**
 * The publishing credentials of a Gradle script: which target reads which names (see
 * credential-refs.ts for how an expression's names are read). Pure.
 */
import type { Token } from './lexer.js';
import type { CredentialSource } from './build-script-model.js';
import { callArguments, referencesIn, type ScriptScope } from './credential-refs.js';
import { blockIndex, type Block, type Statement } from './statements.js';

const nexusRoots = ['nexusPublishing'];
const publishingBlocks = ['publishing', 'uploadArchives', 'mavenDeployer'];
const nmcpRoots = ['nmcp', 'nmcpAggregation', 'nmcpSettings'];

function sourceKind(path: readonly Block[]): CredentialSource['kind'] | undefined {
  const names = path.map((b) => b.name);
  // A repository's credentials count only for publishing: the top-level `repositories {}` downloads.
  if (names.includes('credentials')) return names.some((n) => publishingBlocks.includes(n)) ? 'credentials' : undefined;
  if (names.some((n) => nexusRoots.includes(n))) return 'nexusPublishing';
  if (names.some((n) => nmcpRoots.includes(n))) return 'nmcp';
  if (names.includes('jreleaser') && names.includes('mavenCentral')) return 'jreleaser';
  return undefined;
}

/** The expression after `username`: `= x`, `.set(x)`, `x` (Groovy), `(x)`. */
function valueTokens(s: Statement): readonly Token[] {
  const t = s.tokens;
  if (t[1]?.text === '.' && t[2]?.text === 'set') return t.slice(3);
  return t[1]?.text === '=' ? t.slice(2) : t.slice(1);
}

/**
 * The credentials of every publishing target in one script: `username`/`password` in a
 * `credentials {}` block, a gradle-nexus repository, an nmcp block or JReleaser's deployer, and
 * `credentials(PasswordCredentials)` (Gradle then reads `<repository name>Username`/`Password`).
 */
export function credentialSources(all: readonly Statement[], scope: ScriptScope): CredentialSource[] {
  const byBlock = new Map<Block | undefined, CredentialSource>();
  const names = new Map<Block, string>();
  const typed: { block: Block; line: number }[] = [];
  for (const s of all) {
    const first = s.tokens[0];
    const innermost = s.path[s.path.length - 1];
    if (first?.kind !== 'ident') continue;
    if (first.text === 'name' && innermost !== undefined) {
      const value = valueTokens(s).find((x) => x.kind === 'string' && x.dynamic !== true);
      if (value !== undefined) names.set(innermost, value.text);
      continue;
    }
    if (first.text === 'credentials' && s.tokens.some((x) => x.text === 'PasswordCredentials') && innermost !== undefined && blockIndex(s.path, publishingBlocks) >= 0) {
      typed.push({ block: innermost, line: s.line });
      continue;
    }
    // The legacy maven plugin: `repository(url: ...) { authentication(userName: ossrhUsername, password: ossrhPassword) }`.
    if (first.text === 'authentication' && blockIndex(s.path, ['mavenDeployer']) >= 0) {
      const named = new Map(callArguments(s.tokens, 'authentication').map((a) => [a[0]?.text, a.slice(2)] as const));
      const user = named.get('userName');
      const pass = named.get('password');
      if (user !== undefined && pass !== undefined) {
        byBlock.set(innermost, { kind: 'credentials', line: s.line, ...(innermost === undefined ? {} : { block: innermost }), username: { refs: referencesIn(user, scope), line: s.line }, password: { refs: referencesIn(pass, scope), line: s.line } });
      }
      continue;
    }
    if (first.text !== 'username' && first.text !== 'password') continue;
    const kind = sourceKind(s.path);
    if (kind === undefined) continue;
    // The repository block: the one around `credentials {}`, else the innermost.
    const credAt = s.path.findLastIndex((b) => b.name === 'credentials');
    const block = credAt > 0 ? s.path[credAt - 1] : innermost;
    let source = byBlock.get(block);
    if (source === undefined) {
      source = { kind, line: s.line, ...(block === undefined ? {} : { block }) };
      byBlock.set(block, source);
    }
    source[first.text] = { refs: referencesIn(valueTokens(s), scope), line: s.line };
  }
  for (const { block, line } of typed) {
    if (byBlock.has(block)) continue; // `credentials(PasswordCredentials) { username = ... }`: those names win
    // `maven { name = "sonatype"; credentials(PasswordCredentials::class) }`, or `maven("sonatype") {`.
    const name = names.get(block) ?? (block.name === 'maven' ? undefined : block.name);
    if (name === undefined) continue;
    byBlock.set(block, {
      kind: 'credentials',
      line,
      block,
      username: { refs: [{ name: `${name}Username`, env: false }], line },
      password: { refs: [{ name: `${name}Password`, env: false }], line },
    });
  }
  return [...byBlock.values()];
}
