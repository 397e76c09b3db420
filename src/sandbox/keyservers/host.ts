import type { StateFile } from '../shared/persistence.js';
import { continueAndRead, type Route } from '../shared/http.js';
import { handleHkp } from './hkp-routes.js';
import { KeyDirectory } from './key-directory.js';
import { handleVks } from './vks-routes.js';

/** Holds the current key directory (persisted under `keys`); reset() swaps in an empty one. */
export class KeyServerHost {
  current: KeyDirectory;

  constructor(
    private readonly stateFile: StateFile,
    private readonly options: { acceptUnconfirmed?: boolean } = {},
  ) {
    this.current = this.make(stateFile.saved('keys'));
    stateFile.own('keys', () => this.current.toJSON());
  }

  private make(data: unknown): KeyDirectory {
    const options = { onChange: () => void this.stateFile.save().catch(() => undefined), acceptUnconfirmed: this.options.acceptUnconfirmed === true };
    return data === undefined ? new KeyDirectory(options) : KeyDirectory.fromJSON(data, options);
  }

  reset(): void {
    this.current = this.make(undefined);
  }

  /** `/keys/...`: the primary key server (VKS API, mail confirmation); `origin` is the sandbox's. */
  primaryRoutes(origin: () => string): Route {
    return async (req, res, rest, _query, search) =>
      handleVks(this.current, req, res, rest + search, await continueAndRead(req, res, 1024 * 1024), `${origin()}/keys`);
  }

  /** `/keys2/...`: the secondary key server (HKP). */
  secondaryRoutes(): Route {
    return async (req, res, rest, _query, search) => handleHkp(this.current, req, res, rest + search, await continueAndRead(req, res, 1024 * 1024));
  }
}
