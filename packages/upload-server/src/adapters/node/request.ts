/**
 * What the adapter reads of Node's `IncomingMessage`: URL, headers, and a body read whole (small) or as the
 * handler reads it (a stream), capped in bytes and in time. Part of the node adapter (`../node.ts`).
 */
import type { IncomingMessage } from 'node:http';
import { UploadError } from '../../errors';
import { MAX_BODY_BYTES } from '../../limits';

/** What a framework may have added to the request: a parsed body (Express, Next.js Pages) and a mount path. */
export type FrameworkRequest = IncomingMessage & { body?: unknown; originalUrl?: string };

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
 * @throws {@link UploadError} `INVALID_REQUEST` (400) for a Host that is not a host, or an invalid URL.
 */
export function requestUrl(req: FrameworkRequest, trustProxy: boolean): URL {
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

/** An IPv4 or IPv6 address as `X-Forwarded-For` lists one (no port, no brackets). */
const IP_ADDRESS = /^(?:\d{1,3}(?:\.\d{1,3}){3}|[0-9A-Fa-f:]*:[0-9A-Fa-f:.]*)$/;

/** An IPv4 client on a dual-stack socket (`::ffff:127.0.0.1`) as IPv4: one client, one subject either way. */
function plainAddress(address: string): string {
  return /^::ffff:\d{1,3}(?:\.\d{1,3}){3}$/i.test(address) ? address.slice(7) : address;
}

/**
 * The client's IP address: the socket's remote address, or with `trustProxy` the first `X-Forwarded-For`
 * address (the client as the first proxy saw it; ignored when it is not an IP address). The default subject of
 * the handler's `limits`; undefined when the socket is gone and nothing else says.
 */
export function clientAddress(req: IncomingMessage, trustProxy: boolean): string | undefined {
  const forwarded = trustProxy ? firstValue(req.headers['x-forwarded-for']) : undefined;
  if (forwarded !== undefined && IP_ADDRESS.test(forwarded)) return plainAddress(forwarded);
  const address = req.socket?.remoteAddress;
  return address === undefined || address === '' ? undefined : plainAddress(address);
}

/** The request's headers as Fetch `Headers` (repeated headers appended; HTTP/2 pseudo-headers left out). */
export function requestHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    // HTTP/2 pseudo-headers (`:authority`, `:path`) are not headers of a Fetch Request.
    if (value === undefined || name.startsWith(':')) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  return headers;
}

/** 413 `PAYLOAD_TOO_LARGE` for a body over `maxBodyBytes`. */
export function tooLarge(maxBodyBytes: number): UploadError {
  return new UploadError('PAYLOAD_TOO_LARGE', `Request body is larger than ${maxBodyBytes} bytes.`);
}

/** 408 `REQUEST_TIMEOUT` for a body still incomplete after `timeoutMs`. */
export function timedOut(timeoutMs: number): UploadError {
  return new UploadError('REQUEST_TIMEOUT', `Request body was not complete within ${timeoutMs} ms.`);
}

/**
 * A body that a framework has already read and parsed: Express's `express.json()` or `express.text()`,
 * Next.js Pages Router's body parser. Used only when the stream has been consumed: Express 4's body-parser
 * sets `req.body = {}` for content types it does not handle and leaves the stream unread.
 */
export function parsedBody(req: FrameworkRequest): { bytes: Uint8Array } | undefined {
  if (req.body === undefined || !req.readableEnded) return undefined;
  const body = req.body;
  if (body instanceof Uint8Array) return { bytes: body };
  return { bytes: new TextEncoder().encode(typeof body === 'string' ? body : JSON.stringify(body)) };
}

/** Limits of {@link streamBody}. */
export interface BodyLimits {
  /** Largest body read, in bytes. */
  maxBodyBytes: number;
  /** Time from the call until the body's last byte, in milliseconds. */
  timeoutMs: number;
}

/** A request body being read from `req`: why it was cut (if it was), and how to stop its timer. */
export interface BodyReading {
  /** The adapter's own answer when the body was cut: 413 over the cap, 408 past the timeout. */
  failure(): UploadError | undefined;
  /** Stops the timer and the listeners; the rest of the body, if any, is left to Node. Idempotent. */
  release(): void;
}

/** A request body being streamed as the handler reads it ({@link streamBody}). */
export interface StreamedBody extends BodyReading {
  stream: ReadableStream<Uint8Array>;
}

/** A small request body read whole before the handler is called ({@link bufferBody}). */
export interface BufferedBody extends BodyReading {
  /** The body's bytes; rejects with the failure (408), or 400 when the client goes away first. */
  bytes: Promise<Uint8Array>;
}

/**
 * The body of a request that declares a Content-Length up to this many bytes (16 KiB, the handler's own
 * limit on every body but a multipart `complete`: `MAX_BODY_BYTES`) is read whole before the handler is
 * called, rather than streamed: the handler reads such a body whole anyway, and a stream of our own in front
 * of the Request's cost more CPU than the rest of the adapter (the preparation benchmark's profile).
 */
export const BUFFERED_BODY_BYTES = MAX_BODY_BYTES;

/**
 * Reads a body whose declared Content-Length is at most {@link BUFFERED_BODY_BYTES} (Node's parser holds
 * it to that length), within `timeoutMs` of the call: past it, 408 as {@link streamBody} does, the rest
 * not read. A client that goes away first gets 400 (it reads no answer).
 */
export function bufferBody(req: IncomingMessage, timeoutMs: number): BufferedBody {
  const chunks: Buffer[] = [];
  let failure: UploadError | undefined;
  let settle!: { resolve: (bytes: Uint8Array) => void; reject: (error: unknown) => void };
  const bytes = new Promise<Uint8Array>((resolve, reject) => (settle = { resolve, reject }));
  // Rejections are read by the adapter when it awaits `bytes`; none is left unhandled before.
  bytes.catch(() => {});

  const detach = () => {
    clearTimeout(timer);
    req.off('data', onData);
    req.off('end', onEnd);
    req.off('error', onGone);
    req.off('close', onGone);
  };
  const onData = (chunk: Buffer) => chunks.push(chunk);
  const onEnd = () => {
    detach();
    settle.resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
  };
  const onGone = () => {
    if (req.readableEnded) return;
    detach();
    settle.reject(new UploadError('INVALID_REQUEST', 'The client closed the connection before the request body was complete.'));
  };
  const timer = setTimeout(() => {
    detach();
    req.pause();
    failure = timedOut(timeoutMs);
    settle.reject(failure);
  }, timeoutMs);
  req.on('data', onData);
  req.on('end', onEnd);
  req.on('error', onGone);
  req.on('close', onGone);
  return { bytes, failure: () => failure, release: detach };
}

/**
 * The request body as a stream that reads `req` only when the handler reads (a high-water mark of 0, and
 * `req` paused whenever the stream's queue is full).
 * - More than `maxBodyBytes`: the stream fails with 413, and what is left is read and discarded, as Node
 *   does with any body a server leaves unread, so that the 413 answer reaches the client instead of a
 *   connection reset.
 * - Not complete `timeoutMs` after the call (a body sent a byte at a time, a Content-Length never reached):
 *   the stream fails with 408 and the rest is not read; the adapter closes the connection after its answer.
 *   Without it, such a body holds the socket until Node's `requestTimeout` (300 s).
 */
export function streamBody(req: IncomingMessage, limits: BodyLimits): StreamedBody {
  let received = 0;
  let attached = false;
  let released = false;
  let failure: UploadError | undefined;
  let controller!: ReadableStreamDefaultController<Uint8Array>;

  const detach = () => {
    released = true;
    clearTimeout(timer);
    req.off('data', onData);
    req.off('end', onEnd);
    req.off('error', onFailure);
    req.off('close', onClose);
  };
  const cut = (error: UploadError) => {
    failure = error;
    controller.error(error);
  };
  const onData = (chunk: Buffer) => {
    received += chunk.byteLength;
    if (received > limits.maxBodyBytes) {
      detach();
      req.resume();
      cut(tooLarge(limits.maxBodyBytes));
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
  const onTimeout = () => {
    detach();
    req.pause();
    cut(timedOut(limits.timeoutMs));
  };
  const timer = setTimeout(onTimeout, limits.timeoutMs);

  const stream = new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
      },
      pull() {
        if (released) return;
        if (!attached) {
          attached = true;
          req.on('data', onData);
          req.on('end', onEnd);
          req.on('error', onFailure);
          req.on('close', onClose);
        }
        req.resume();
      },
      cancel() {
        detach();
        req.resume();
      },
    },
    { highWaterMark: 0 },
  );
  return {
    stream,
    failure: () => failure,
    release() {
      if (!released) detach();
    },
  };
}
