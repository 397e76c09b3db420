import type { IncomingMessage, ServerResponse } from 'node:http';
import { KeyDirectory } from './keyservers/index.js';

/** The key directory as the sandbox uses it (src/sandbox/keyservers owns the real one). */
export interface KeyDirectoryLike {
  handlePrimary(req: IncomingMessage, res: ServerResponse, subpath: string, body: Buffer, publicBaseUrl: string): Promise<void>;
  handleSecondary(req: IncomingMessage, res: ServerResponse, subpath: string, body: Buffer): Promise<void>;
  mails(): unknown[];
  keyForValidation(issuer: { fingerprint?: string; keyId: string }): string | undefined;
  toJSON(): unknown;
}

/** Holds the current directory; reset() swaps in an empty one. */
export interface KeyServerHost {
  current: KeyDirectoryLike;
  reset(): Promise<void>;
}

/** Restores the key servers from the saved state; `onChange` persists after every mutation. */
export function openKeyServers(saved: unknown, onChange: () => void): KeyServerHost {
  const make = (data: unknown): KeyDirectory =>
    data === undefined ? new KeyDirectory({ onChange }) : KeyDirectory.fromJSON(data, { onChange });
  const host: KeyServerHost = {
    current: make(saved),
    reset: async () => {
      host.current = make(undefined);
      onChange();
    },
  };
  return host;
}
