/**
 * A project's web address from its git remote (`--fix-metadata`, `relctl init`): `git@github.com:o/r.git`,
 * `ssh://git@host/o/r.git`, `git://host/o/r`, `https://user:token@host/o/r.git` all give
 * `https://host/o/r`. Credentials in the remote never reach the POM. Pure.
 */
export function browseUrlOf(remote: string | undefined): string | undefined {
  const text = remote?.trim();
  if (text === undefined || text === '') return undefined;
  // scp-like: [user@]host:owner/repo(.git)
  const scp = /^(?:[^@/\s]+@)?([A-Za-z0-9.-]+\.[A-Za-z]{2,}):(?!\/)([^\s]+?)(?:\.git)?\/?$/.exec(text);
  if (scp !== null) return clean(scp[1]!, scp[2]!);
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    return undefined;
  }
  if (!/^(https?|ssh|git|git\+ssh):$/.test(u.protocol) || u.hostname === '') return undefined;
  return clean(u.hostname, u.pathname.replace(/^\/+/, '').replace(/(\.git)?\/?$/, ''));
}

function clean(host: string, repoPath: string): string | undefined {
  const parts = repoPath.split('/').filter((p) => p !== '');
  if (parts.length < 2 || parts.some((p) => p === '..' || p === '.' || !/^[\w.~-]+$/.test(p))) return undefined;
  return `https://${host.toLowerCase()}/${parts.join('/')}`;
}
