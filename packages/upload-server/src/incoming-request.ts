/**
 * A request as the handler reads it: method, headers and body, and the Fetch `Request` that user code
 * (`onBeforeUpload`, `key`, `onUploadComplete`) receives. The Fetch handler makes one of a `Request`
 * ({@link fetchIncoming}); the node adapter makes one straight from Node's `IncomingMessage`, and builds the
 * `Request` only when user code first reads it (`adapters/node/incoming.ts`): a preparation whose hooks never
 * read it makes none.
 */
import type { JsonAnswer } from './json-answer';

/** Where an operation gets the request that user code receives: read only when a hook or `key` is called. */
export interface RequestSource {
  /** The Fetch `Request` (made on first read where the adapter did not start from one; the same object after). */
  readonly request: Request;
  /**
   * The client's IP address as the adapter sees it (the node adapter: the socket's remote address, or with
   * `trustProxy` the first `X-Forwarded-For` address): the default subject of `limits`. A Fetch `Request`
   * carries none: undefined.
   */
  readonly remoteAddress?: string | undefined;
}

/** What the handler reads of a request. */
export interface IncomingRequest extends RequestSource {
  /** The method, upper case for the standard ones (`POST`). */
  readonly method: string;
  /** A header's value as `Headers.get` gives it (`name` in lower case); null when the request has none. */
  header(name: string): string | null;
  /**
   * The whole body, when the adapter read it before the call: the handler then reads it here and never
   * reads `request`'s body (which user code may still read). Undefined: the body is read from `request`.
   */
  readonly bytes?: Uint8Array | undefined;
}

/** The handler's own entry: a request in, the JSON answer out. */
export type IncomingHandler = (incoming: IncomingRequest) => Promise<JsonAnswer>;

/** A Fetch `Request` as the handler reads it: everything is read from the request itself. */
export function fetchIncoming(request: Request): IncomingRequest {
  return { method: request.method, header: (name) => request.headers.get(name), request };
}

/** Where {@link withIncomingEntry} keeps the handler's own entry on the Fetch handler (not enumerable). */
const INCOMING_ENTRY = Symbol('upbeam.incomingHandler');

/**
 * `fetchHandler` with `entry` attached, for the node adapter ({@link incomingEntryOf}): the same handler
 * without a Fetch `Request` and `Response` around it.
 */
export function withIncomingEntry<H extends (request: Request) => Promise<Response>>(fetchHandler: H, entry: IncomingHandler): H {
  Object.defineProperty(fetchHandler, INCOMING_ENTRY, { value: entry });
  return fetchHandler;
}

/** The entry {@link withIncomingEntry} attached to `handler`; undefined for any other Fetch handler. */
export function incomingEntryOf(handler: (request: Request) => Promise<Response>): IncomingHandler | undefined {
  return (handler as { [INCOMING_ENTRY]?: IncomingHandler })[INCOMING_ENTRY];
}
