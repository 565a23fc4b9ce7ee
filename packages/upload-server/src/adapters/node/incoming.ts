/**
 * Node's `IncomingMessage` as the handler reads it (`IncomingRequest`, `../../incoming-request.ts`), without
 * a Fetch `Request`. Part of the node adapter (`../node.ts`).
 *
 * The handler reads the method, two headers and the body; the adapter has all three from Node already (the
 * body read whole before the call). The Fetch `Request` that user code receives (`onBeforeUpload`'s
 * `request`, `key`, `onUploadComplete`) is built on its first read, once: a genuine undici `Request` with the
 * same URL, headers, body and signal, its body unread (the handler read `bytes`, not it), so that
 * `request.clone()`, `request.json()`, `new Request(request)` and `fetch(request)` work in a hook. Building
 * one per call cost more CPU than the rest of the preparation (the preparation benchmark's profile).
 */
import type { IncomingMessage } from 'node:http';
import type { IncomingRequest } from '../../incoming-request';
import { requestHeaders } from './request';

/** What a request is made of. */
export interface NodeIncomingParts {
  req: IncomingMessage;
  url: URL;
  method: string;
  /** The whole body, read already; none for a request without one. */
  bytes?: Uint8Array | undefined;
  /** Header names left out (a body re-serialized after a framework parsed it no longer has its length). */
  omitHeaders?: readonly string[] | undefined;
  /** The request's signal, made when first asked for (aborted when the client goes away). */
  signal: () => AbortSignal;
  /** The client's address (`clientAddress`). */
  remoteAddress?: string | undefined;
}

/** A header of Node's request as `Headers.get` gives it: repeated values joined with `, `. */
function headerValue(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(', ') : value;
}

/** See the module's description. */
export function nodeIncoming(parts: NodeIncomingParts): IncomingRequest {
  const { req, url, method, bytes, omitHeaders } = parts;
  let request: Request | undefined;
  return {
    method,
    remoteAddress: parts.remoteAddress,
    header: (name) => (omitHeaders?.includes(name) ? null : headerValue(req.headers[name])),
    bytes,
    get request() {
      if (!request) {
        const headers = requestHeaders(req);
        for (const name of omitHeaders ?? []) headers.delete(name);
        const body = method === 'GET' || method === 'HEAD' ? undefined : (bytes as Uint8Array<ArrayBuffer> | undefined);
        request = new Request(url, { method, headers, body, signal: parts.signal() });
      }
      return request;
    },
  };
}
