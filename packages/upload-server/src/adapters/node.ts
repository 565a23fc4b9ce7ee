/**
 * @module
 * `@upbeam/upload-server/node`: the upload handler on `node:http`, Express, Connect, Fastify's raw
 * `req`/`res`, or any framework that hands over Node's `IncomingMessage` and `ServerResponse`. It turns the
 * request into a Fetch `Request`, calls the Fetch handler and writes its `Response` back. Like every
 * adapter, it uses only the package's public entry.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorToResponse, isUploadError, MAX_COMPLETE_BODY_BYTES, UploadError, type UploadHandler } from '../index';

/** Options of {@link toNodeHandler}. */
export interface NodeHandlerOptions {
  /**
   * Largest request body read, in bytes. A larger declared `Content-Length`, or a body that grows past it
   * while streaming, is answered with 413 `{ error, code: 'PAYLOAD_TOO_LARGE' }` and never reaches the
   * handler. `createUploadHandler` itself reads at most {@link MAX_COMPLETE_BODY_BYTES} (the multipart
   * `complete` of up to 10000 parts) and refuses any other body over 16 KiB (`MAX_BODY_BYTES`), so only a
   * smaller value changes anything for it; below 1 MiB, large multipart uploads cannot complete.
   * @default MAX_COMPLETE_BODY_BYTES (1048576, 1 MiB)
   */
  maxBodyBytes?: number;
  /**
   * Build the request URL from the first `X-Forwarded-Proto` (`http` or `https`) and `X-Forwarded-Host`
   * values instead of the connection and `Host`. Turn on only behind a proxy that sets these headers
   * itself: otherwise any client can choose them. Invalid values are ignored either way.
   * @default false
   */
  trustProxy?: boolean;
  /**
   * Receives what fails in the adapter itself: a handler that throws (answered 500
   * `{ error: 'Internal Server Error' }`) or a response body that breaks while it is being written.
   * @default console.error
   */
  onError?: (error: unknown) => void;
}

/**
 * A Node request listener: `(req, res) => Promise<void>`. It resolves once the response is written (or the
 * connection is gone) and never rejects, so it can be given to `http.createServer` or an Express route as is.
 */
export type NodeUploadHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** What a framework may have added to the request: a parsed body (Express, Next.js Pages) and a mount path. */
type FrameworkRequest = IncomingMessage & { body?: unknown; originalUrl?: string };

/** A host name or IPv4 address, or a bracketed IPv6 address, with an optional port. */
const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._~-]+)(?::\d{1,5})?$/;

function firstValue(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  return value?.split(',')[0]?.trim() || undefined;
}

/**
 * The request URL. The path is appended to the origin as text, never resolved against it, so that a
 * request target such as `//other.example/x` cannot change the host. Express's `originalUrl` is preferred:
 * a router mounted on a path strips that path from `req.url`.
 */
function requestUrl(req: FrameworkRequest, trustProxy: boolean): URL {
  const encrypted = (req.socket as { encrypted?: boolean } | undefined)?.encrypted === true;
  const forwardedProto = trustProxy ? firstValue(req.headers['x-forwarded-proto'])?.toLowerCase() : undefined;
  const protocol = forwardedProto === 'http' || forwardedProto === 'https' ? forwardedProto : encrypted ? 'https' : 'http';
  const forwardedHost = trustProxy ? firstValue(req.headers['x-forwarded-host']) : undefined;
  // HTTP/1.0 clients may send no Host at all.
  const host = forwardedHost !== undefined && HOST.test(forwardedHost) ? forwardedHost : (req.headers.host ?? 'localhost');
  if (!HOST.test(host)) throw new UploadError('INVALID_REQUEST', 'The Host header is not a valid host.');
  let target = req.originalUrl ?? req.url ?? '/';
  // Absolute form (`POST http://host/path HTTP/1.1`, sent to proxies): keep its path and query only.
  if (!target.startsWith('/')) {
    try {
      const absolute = new URL(target);
      target = absolute.pathname + absolute.search;
    } catch {
      target = '/';
    }
  }
  try {
    return new URL(`${protocol}://${host}${target}`);
  } catch (cause) {
    throw new UploadError('INVALID_REQUEST', 'The request URL is not valid.', { cause });
  }
}

function requestHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    // HTTP/2 pseudo-headers (`:authority`, `:path`) are not headers of a Fetch Request.
    if (value === undefined || name.startsWith(':')) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  return headers;
}

function tooLarge(maxBodyBytes: number): UploadError {
  return new UploadError('PAYLOAD_TOO_LARGE', `Request body is larger than ${maxBodyBytes} bytes.`);
}

/**
 * A body that a framework has already read and parsed: Express's `express.json()` or `express.text()`,
 * Next.js Pages Router's body parser. Used only when the stream has been consumed: Express 4's body-parser
 * sets `req.body = {}` for content types it does not handle and leaves the stream unread.
 */
function parsedBody(req: FrameworkRequest): { bytes: Uint8Array } | undefined {
  if (req.body === undefined || !req.readableEnded) return undefined;
  const body = req.body;
  if (body instanceof Uint8Array) return { bytes: body };
  return { bytes: new TextEncoder().encode(typeof body === 'string' ? body : JSON.stringify(body)) };
}

/**
 * The request body as a stream that reads `req` only when the handler reads (a high-water mark of 0, and
 * `req` paused whenever the stream's queue is full), and fails with a 413 `UploadError` once more than
 * `maxBodyBytes` arrive. What is left after that is read and discarded, as Node does with any body a
 * server leaves unread, so that the 413 answer reaches the client instead of a connection reset.
 */
function streamBody(req: IncomingMessage, maxBodyBytes: number, onTooLarge: () => void): ReadableStream<Uint8Array> {
  let received = 0;
  let attached = false;
  let controller!: ReadableStreamDefaultController<Uint8Array>;

  const detach = () => {
    req.off('data', onData);
    req.off('end', onEnd);
    req.off('error', onFailure);
    req.off('close', onClose);
  };
  const discardRest = () => {
    detach();
    req.resume();
  };
  const onData = (chunk: Buffer) => {
    received += chunk.byteLength;
    if (received > maxBodyBytes) {
      discardRest();
      onTooLarge();
      controller.error(tooLarge(maxBodyBytes));
      return;
    }
    controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    if ((controller.desiredSize ?? 0) <= 0) req.pause();
  };
  const onEnd = () => {
    detach();
    controller.close();
  };
  const onFailure = (error: Error) => {
    detach();
    controller.error(error);
  };
  const onClose = () => {
    if (!req.readableEnded) onFailure(new Error('The client closed the connection before the request body was complete.'));
  };

  return new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
      },
      pull() {
        if (!attached) {
          attached = true;
          req.on('data', onData);
          req.on('end', onEnd);
          req.on('error', onFailure);
          req.on('close', onClose);
        }
        req.resume();
      },
      cancel: discardRest,
    },
    { highWaterMark: 0 },
  );
}

/** Waits until `res` can take more data, or is gone. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/**
 * Writes a Fetch `Response` to `res`: status, headers (each `Set-Cookie` on its own), then the body chunk by
 * chunk, waiting for `drain` whenever `res.write` reports a full buffer. Stops reading the body when the
 * client goes away.
 */
async function writeResponse(response: Response, res: ServerResponse, headOnly: boolean): Promise<void> {
  res.statusCode = response.status;
  if (response.statusText) res.statusMessage = response.statusText;
  for (const [name, value] of response.headers) {
    if (name !== 'set-cookie') res.setHeader(name, value);
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader('set-cookie', cookies);

  if (!response.body || headOnly) {
    await response.body?.cancel();
    res.end();
    return;
  }
  const reader = response.body.getReader();
  try {
    for (;;) {
      if (res.destroyed) {
        await reader.cancel();
        return;
      }
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await drained(res);
    }
    res.end();
  } finally {
    reader.releaseLock();
  }
}

/**
 * Mounts a Fetch handler (`createUploadHandler(...)`) on Node's HTTP server or Express.
 *
 * - Request: method, headers and URL (`http(s)://{Host}{path}`; with `trustProxy`, from `X-Forwarded-Proto`
 *   and `X-Forwarded-Host`) are copied; the body is streamed to the handler as it reads it, up to
 *   `maxBodyBytes` (1 MiB by default; the handler refuses more than 16 KiB but for a multipart `complete`). A body that Express (`express.json()`, `express.text()`) or
 *   Next.js's Pages Router already parsed is accepted: it is serialized back to JSON (or used as is when a
 *   string or bytes), so the route works with or without a body parser in front of it.
 * - Answers the adapter gives itself, in the handler's own shape: 413 `{ error, code: 'PAYLOAD_TOO_LARGE' }`
 *   over the cap; 400 `{ error, code: 'INVALID_REQUEST' }` for a `Host` that is not a host name; 500
 *   `{ error: 'Internal Server Error' }` if the handler throws (it is passed to `onError`).
 * - Response: status, headers and body are written back with backpressure (`drain`). When the client
 *   disconnects first, the `Request`'s `signal` is aborted and the body is no longer read.
 *
 * @param handler - The Fetch handler, usually `createUploadHandler(config)`; any `(Request) => Promise<Response>` works.
 * @param options - {@link NodeHandlerOptions}
 * @returns A `(req, res) => Promise<void>` listener that never rejects.
 *
 * @example
 * // Express (4 or 5), with or without express.json() in front
 * import express from 'express';
 * import { createUploadHandler } from '@upbeam/upload-server';
 * import { toNodeHandler } from '@upbeam/upload-server/node';
 *
 * const app = express();
 * app.post('/api/s3-upload', toNodeHandler(createUploadHandler({ allowedContentTypes: ['image/*'] })));
 * app.listen(3000);
 *
 * // node:http
 * import { createServer } from 'node:http';
 * const upload = toNodeHandler(createUploadHandler());
 * createServer((req, res) => {
 *   if (req.url?.split('?')[0] === '/api/s3-upload') void upload(req, res);
 *   else res.writeHead(404).end();
 * }).listen(3000);
 */
export function toNodeHandler(handler: UploadHandler, options: NodeHandlerOptions = {}): NodeUploadHandler {
  const maxBodyBytes = options.maxBodyBytes ?? MAX_COMPLETE_BODY_BYTES;
  const trustProxy = options.trustProxy ?? false;
  const log = options.onError ?? ((error: unknown) => console.error('[upbeam] node adapter:', error));

  return async (req: FrameworkRequest, res) => {
    let overCap = false;
    const aborted = new AbortController();
    const onClose = () => {
      if (!res.writableFinished) aborted.abort(new Error('The client closed the connection.'));
    };
    res.once('close', onClose);
    try {
      let response: Response;
      try {
        const url = requestUrl(req, trustProxy);
        const method = req.method ?? 'GET';
        const headers = requestHeaders(req);
        const declared = Number(req.headers['content-length']);
        let body: BodyInit | null = null;
        if (method !== 'GET' && method !== 'HEAD') {
          const parsed = parsedBody(req);
          if (parsed) {
            // The bytes sent are no longer the bytes that came in: their length and encoding headers would lie.
            for (const name of ['content-length', 'content-encoding', 'transfer-encoding']) headers.delete(name);
            if (parsed.bytes.byteLength > maxBodyBytes) throw tooLarge(maxBodyBytes);
            body = parsed.bytes as Uint8Array<ArrayBuffer>;
          } else if (declared > maxBodyBytes) {
            throw tooLarge(maxBodyBytes);
          } else if (!req.readableEnded) {
            body = streamBody(req, maxBodyBytes, () => (overCap = true));
          }
        }
        const request = new Request(url, {
          method,
          headers,
          body,
          signal: aborted.signal,
          // Required by Node's fetch for a stream body: the request is sent (here: read) before the response.
          ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
        } as RequestInit);
        response = await handler(request);
        // Whatever the handler made of a stream that failed at the cap, the answer is the adapter's 413.
        if (overCap) {
          await response.body?.cancel();
          throw tooLarge(maxBodyBytes);
        }
      } catch (error) {
        response = errorToResponse(error, log);
        // Do not keep a connection whose request body was not read to its end.
        if (overCap || (isUploadError(error) && error.code === 'PAYLOAD_TOO_LARGE')) res.setHeader('connection', 'close');
      }
      await writeResponse(response, res, req.method === 'HEAD');
    } catch (error) {
      // The response body failed before anything was sent: answer 500 (and log); once the status is sent,
      // only ending the connection tells the client that the body is incomplete.
      if (res.headersSent) {
        log(error);
        res.destroy();
      } else {
        for (const name of res.getHeaderNames()) res.removeHeader(name);
        await writeResponse(errorToResponse(error, log), res, false).catch(() => res.destroy());
      }
    } finally {
      res.off('close', onClose);
    }
  };
}
