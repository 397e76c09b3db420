import type { IncomingMessage, ServerResponse } from 'node:http';

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
export async function openKeyServers(saved: unknown, onChange: () => void): Promise<KeyServerHost> {
  // TEMPORARY until src/sandbox/keyservers lands: a directory that knows no key.
  const spec = './keyservers/index.js';
  const { KeyDirectory } = (await import(spec).catch(() => ({ KeyDirectory: NoKeys }))) as { KeyDirectory: typeof NoKeys };
  const make = (data: unknown): KeyDirectoryLike => {
    const directory = data === undefined ? new KeyDirectory() : KeyDirectory.fromJSON(data);
    directory.onChange = onChange;
    return directory;
  };
  const host: KeyServerHost = {
    current: make(saved),
    reset: async () => {
      host.current = make(undefined);
      onChange();
    },
  };
  return host;
}

class NoKeys implements KeyDirectoryLike {
  onChange: () => void = () => undefined;
  static fromJSON(_data?: unknown): NoKeys {
    return new NoKeys();
  }
  async handlePrimary(_req: IncomingMessage, res: ServerResponse): Promise<void> {
    res.writeHead(404).end();
  }
  async handleSecondary(_req: IncomingMessage, res: ServerResponse): Promise<void> {
    res.writeHead(404).end();
  }
  mails(): unknown[] {
    return [];
  }
  keyForValidation(): string | undefined {
    return undefined;
  }
  toJSON(): unknown {
    return {};
  }
}
