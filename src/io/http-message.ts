// What a request and its answer are, apart from the HTTP layer (http.ts) so that its policy
// (http-policy.ts) can read them without importing the layer that calls it.

/** Which API a request talks to: named in messages, with the setting that points at it. */
export interface ApiTarget {
  name: string;
  setting: string;
}

/**
 * A body sent as a stream of known length (a bundle from disk): `open` is called once per attempt,
 * so a retry sends a new stream, and `length` is sent as Content-Length (never chunked encoding,
 * DESIGN §5).
 */
export interface StreamedBody {
  length: number;
  open(): AsyncIterable<Uint8Array>;
}

export interface HttpRequest {
  method: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array | StreamedBody;
  /** An API call: no redirects, and a 2xx must match `expect`. */
  api?: ApiTarget;
  /** What a 2xx answer of an API call must be (default json). */
  expect?: 'json' | 'json-or-empty';
  /** A POST that only reads (the Publisher API's status): retried like a GET. */
  idempotent?: boolean;
  /** The command that shows whether a non-idempotent request acted (for ambiguous outcomes). */
  settle?: string;
  /** This request's own body cap, bytes (key servers serve large keys). */
  maxResponseBytes?: number;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Uint8Array;
  text(): string;
  /** Tolerant JSON: undefined when the body is not JSON. */
  json(): unknown;
  /** Content-Type without parameters, lower case ('' when absent). */
  contentType: string;
}
