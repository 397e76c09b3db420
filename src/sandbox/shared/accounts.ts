import type { IncomingMessage } from 'node:http';
import { HttpError, parseAuthorization } from './http.js';
import { inNamespace, namespaceRootOf } from '../../core/namespace.js';

export interface SandboxUser {
  name: string;
  password: string;
  /** The namespaces this account owns; undefined = every namespace no other account owns. */
  namespaces?: string[];
  /**
   * When the token expires (ISO date or time): portal tokens are made with an expiry on the
   * `/usertoken` page. An expired token is refused with 401 like a wrong one; the answer names the
   * expiry in the RFC 6750 form (the real portal does not document its wording).
   */
  expires?: string;
}

/** The `WWW-Authenticate` of an expired token's 401 (RFC 6750 §3: `invalid_token`, with why). */
export const expiredChallenge = 'Bearer error="invalid_token", error_description="The user token has expired"';

/**
 * The token users and who owns which namespace. A namespace listed for one account belongs to it
 * alone (as a verified namespace on the portal belongs to one account); an account without a
 * list may use every namespace nobody owns (ownNamespaceOf says which one a groupId lands in).
 */
export class Accounts {
  constructor(readonly users: readonly SandboxUser[]) {}

  authenticate(name: string, password: string): SandboxUser | undefined {
    return this.users.find((u) => u.name === name && u.password === password);
  }

  /**
   * The caller's user from `Authorization`, or a 401 with an empty body. `realm` adds the Basic
   * challenge browsers and Maven understand.
   */
  require(req: IncomingMessage, schemes: readonly string[], realm?: string, now = Date.now()): SandboxUser {
    const creds = parseAuthorization(req.headers.authorization, schemes);
    const user = creds === undefined ? undefined : this.authenticate(creds.name, creds.password);
    const basic = realm === undefined ? [] : [`Basic realm="${realm}"`];
    if (user === undefined) throw new HttpError(401, '', basic.length === 0 ? {} : { 'www-authenticate': basic[0]! });
    if (user.expires !== undefined && Date.parse(user.expires) <= now) {
      throw new HttpError(401, '', { 'www-authenticate': [expiredChallenge, ...basic].join(', ') });
    }
    return user;
  }

  /**
   * The namespace `user` may use for `groupId` (its longest listed one), or undefined. An account
   * without a list holds, as a verified namespace would, the groupId's reverse domain
   * (`org.example` for `org.example.lib`, `io.github.jane` for `io.github.jane.tool`), so its
   * repositories are keyed by a namespace shorter than the groupId, as on the real service; the
   * groupId itself only where another account owns something inside that domain.
   */
  ownNamespaceOf(user: SandboxUser, groupId: string): string | undefined {
    if (user.namespaces === undefined) {
      if (this.ownedByOther(user, groupId)) return undefined;
      const root = namespaceRootOf(groupId);
      return this.users.some((u) => u !== user && u.namespaces !== undefined && u.namespaces.some((ns) => inNamespace(ns, root))) ? groupId : root;
    }
    return user.namespaces.filter((ns) => inNamespace(groupId, ns)).sort((a, b) => b.length - a.length)[0];
  }

  /** True when `user` may deploy `groupId` (a group id or a namespace). */
  allows(user: SandboxUser, groupId: string): boolean {
    return this.ownNamespaceOf(user, groupId) !== undefined;
  }

  private ownedByOther(user: SandboxUser, groupId: string): boolean {
    return this.users.some((u) => u !== user && u.namespaces !== undefined && u.namespaces.some((ns) => inNamespace(groupId, ns)));
  }
}
