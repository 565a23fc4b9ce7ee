/**
 * @module
 * `@upbeam/upload-server/node`: the upload handler on `node:http`, Express, Connect, Fastify's raw
 * `req`/`res`, or any framework that hands over Node's `IncomingMessage` and `ServerResponse`. A handler of
 * `createUploadHandler` is called through its own entry (`../incoming-request.ts`): the request as Node
 * gives it (`./node/incoming.ts`; the Fetch `Request` its hooks receive is built when they first read it)
 * and its JSON answer written as is (`./node/response.ts`). Any other Fetch handler gets a `Request` and
 * its `Response` is written back. The modules it shares with the main entry are in chunks both import:
 * one copy of each (`UploadError`, the handler's entry).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorToAnswer, isUploadError } from '../errors';
import type { UploadHandler } from '../handler';
import { fetchIncoming, incomingEntryOf, type IncomingRequest } from '../incoming-request';
import type { JsonAnswer } from '../json-answer';
import { MAX_COMPLETE_BODY_BYTES } from '../limits';
import { nodeIncoming } from './node/incoming';
import {
  bufferBody,
  BUFFERED_BODY_BYTES,
  clientAddress,
  parsedBody,
  requestHeaders,
  requestUrl,
  streamBody,
  tooLarge,
  type BodyReading,
  type FrameworkRequest,
} from './node/request';
import { writeAnswer, writeResponse } from './node/response';

/** Headers that no longer describe a body a framework parsed and the adapter serialized again. */
const REPARSED_BODY_HEADERS = ['content-length', 'content-encoding', 'transfer-encoding'];

const clientGone = () => new Error('The client closed the connection.');

/**
 * Time a request body may take to arrive, in milliseconds (10 s): the preparation body is at most 16 KiB
 * (1 MiB for a multipart `complete`), so a client needs 1.6 KB/s (100 KB/s) to make it.
 */
export const BODY_TIMEOUT_MS = 10_000;

/** Options of {@link toNodeHandler}. */
export interface NodeHandlerOptions {
  /**
   * Largest request body read, in bytes. A larger declared `Content-Length`, or a body that grows past it
   * while streaming, is answered with 413 `{ error, code: 'PAYLOAD_TOO_LARGE' }` and never reaches the
   * handler. `createUploadHandler` itself reads at most `MAX_COMPLETE_BODY_BYTES` (the multipart
   * `complete` of up to 10000 parts) and refuses any other body over 16 KiB (`MAX_BODY_BYTES`), so only a
   * smaller value changes anything for it; below 1 MiB, large multipart uploads cannot complete.
   * @default MAX_COMPLETE_BODY_BYTES (1048576, 1 MiB)
   */
  maxBodyBytes?: number;
  /**
   * Time the request body may take to arrive, in milliseconds, counted from the call: a body still
   * incomplete then (sent a byte at a time, or shorter than its Content-Length) is answered with 408
   * `{ error, code: 'REQUEST_TIMEOUT' }` and the connection is closed. Without it such a body holds its
   * socket until Node's `server.requestTimeout` (300 s by default).
   * @default BODY_TIMEOUT_MS (10000)
   */
  bodyTimeoutMs?: number;
  /**
   * Build the request URL from the first `X-Forwarded-Proto` (`http` or `https`) and `X-Forwarded-Host`
   * values instead of the connection and `Host`, and take the client's address (the default subject of the
   * handler's `limits`) from the first `X-Forwarded-For` value instead of the socket. Turn on only behind a
   * proxy that sets these headers itself: otherwise any client can choose them (and so its own subject).
   * Invalid values are ignored either way.
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

/**
 * Mounts a Fetch handler (`createUploadHandler(...)`) on Node's HTTP server or Express.
 *
 * - Request: method, headers and URL (`http(s)://{Host}{path}`; with `trustProxy`, from `X-Forwarded-Proto`
 *   and `X-Forwarded-Host`) are copied; a body that declares a Content-Length of at most 16 KiB is read
 *   whole before the handler is called, any other is streamed to the handler as it reads it, up to
 *   `maxBodyBytes` (1 MiB by default; the handler refuses more than 16 KiB but for a multipart `complete`)
 *   and for `bodyTimeoutMs` (10 s by default). A body that Express (`express.json()`, `express.text()`) or
 *   Next.js's Pages Router already parsed is accepted: it is serialized back to JSON (or used as is when a
 *   string or bytes), so the route works with or without a body parser in front of it.
 * - A handler of `createUploadHandler` reads that request without a Fetch `Request`: the `request` its hooks
 *   receive (`onBeforeUpload`, `key`, `onUploadComplete`) is a genuine `Request`, built on first read, whose
 *   body (read whole or parsed) is still unread: `request.clone()`, `request.json()`, `new Request(request)`
 *   and `fetch(request)` work there. A streamed body is the handler's to read: its `Request` comes first and
 *   its body is used once the hooks run. Any other Fetch handler gets the `Request` at once.
 * - Answers the adapter gives itself, in the handler's own shape: 413 `{ error, code: 'PAYLOAD_TOO_LARGE' }`
 *   over the cap; 408 `{ error, code: 'REQUEST_TIMEOUT' }` for a body not complete within `bodyTimeoutMs`
 *   (then the connection is closed); 400 `{ error, code: 'INVALID_REQUEST' }` for a `Host` that is not a host name; 500
 *   `{ error: 'Internal Server Error' }` if the handler throws (it is passed to `onError`).
 * - Response: status, headers and body are written back with backpressure (`drain`); the JSON answer of
 *   `createUploadHandler` is written as is, in one write. When the client disconnects first, the
 *   `Request`'s `signal` is aborted (already aborted when first read later) and the body is no longer read.
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
  const timeoutMs = options.bodyTimeoutMs ?? BODY_TIMEOUT_MS;
  const trustProxy = options.trustProxy ?? false;
  const log = options.onError ?? ((error: unknown) => console.error('[upbeam] node adapter:', error));

  /**
   * The request as the handler reads it (once a small body has arrived); `reading` is set when its body is
   * read from `req` by the adapter: whole first up to {@link BUFFERED_BODY_BYTES}, else as the handler
   * reads it, from a `Request` with a stream body.
   */
  const toIncoming = (req: FrameworkRequest, signal: () => AbortSignal): { incoming: IncomingRequest | Promise<IncomingRequest>; reading?: BodyReading } => {
    const url = requestUrl(req, trustProxy);
    const method = req.method ?? 'GET';
    // The client's address: the default subject of the handler's limits.
    const remoteAddress = clientAddress(req, trustProxy);
    if (method === 'GET' || method === 'HEAD') return { incoming: nodeIncoming({ req, url, method, signal, remoteAddress }) };
    const parsed = parsedBody(req);
    if (parsed) {
      if (parsed.bytes.byteLength > maxBodyBytes) throw tooLarge(maxBodyBytes);
      // The bytes sent are no longer the bytes that came in: their length and encoding headers would lie.
      return { incoming: nodeIncoming({ req, url, method, signal, remoteAddress, bytes: parsed.bytes, omitHeaders: REPARSED_BODY_HEADERS }) };
    }
    if (Number(req.headers['content-length']) > maxBodyBytes) throw tooLarge(maxBodyBytes);
    if (req.readableEnded) return { incoming: nodeIncoming({ req, url, method, signal, remoteAddress }) };
    const declared = req.headers['content-length'];
    if (declared !== undefined && Number(declared) <= Math.min(BUFFERED_BODY_BYTES, maxBodyBytes)) {
      const buffered = bufferBody(req, timeoutMs);
      const incoming = buffered.bytes.then((bytes) => nodeIncoming({ req, url, method, signal, remoteAddress, bytes }));
      return { incoming, reading: buffered };
    }
    const streamed = streamBody(req, { maxBodyBytes, timeoutMs });
    // `duplex: 'half'` is required by Node's fetch for a stream body: the request is read before the response.
    const init = { method, headers: requestHeaders(req), signal: signal(), body: streamed.stream, duplex: 'half' };
    return { incoming: { ...fetchIncoming(new Request(url, init as RequestInit)), remoteAddress }, reading: streamed };
  };

  /** The handler's own entry, when it is one of `createUploadHandler`: no Fetch `Response` either. */
  const entry = incomingEntryOf(handler);

  return async (req: FrameworkRequest, res) => {
    // The signal is made only when a Request is (most preparations make none); one made after the client
    // went away is aborted at once.
    let aborted: AbortController | undefined;
    let gone = false;
    const signal = () => {
      aborted ??= new AbortController();
      if (gone && !aborted.signal.aborted) aborted.abort(clientGone());
      return aborted.signal;
    };
    const onClose = () => {
      if (res.writableFinished) return;
      gone = true;
      aborted?.abort(clientGone());
    };
    res.once('close', onClose);
    let reading: BodyReading | undefined;
    try {
      let reply: { json: JsonAnswer } | { response: Response };
      try {
        const converted = toIncoming(req, signal);
        reading = converted.reading;
        const incoming = await converted.incoming;
        // The handler's JSON answer, or the `Response` of any other Fetch handler.
        reply = entry ? { json: await entry(incoming) } : { response: await handler(incoming.request) };
        // Whatever the handler made of a body the adapter cut (cap or timeout), the answer is the adapter's.
        const cut = reading?.failure();
        if (cut) {
          if ('response' in reply) await reply.response.body?.cancel();
          throw cut;
        }
      } catch (error) {
        reply = { json: errorToAnswer(reading?.failure() ?? error, log) };
        // Do not keep a connection whose request body was not read to its end.
        if (reading?.failure() || (isUploadError(error) && error.code === 'PAYLOAD_TOO_LARGE')) res.setHeader('connection', 'close');
      } finally {
        reading?.release();
      }
      // The handler answered before the body's end (it refuses a large body at 16 KiB unless a multipart
      // ticket admits it): what is left is not read on a kept connection.
      if (reading && !req.readableEnded && !res.headersSent) res.setHeader('connection', 'close');
      const headOnly = req.method === 'HEAD';
      if ('json' in reply) writeAnswer(reply.json, res, headOnly);
      else await writeResponse(reply.response, res, headOnly);
      // A timed-out body is still arriving, unread: end the connection once the 408 is sent.
      if (reading?.failure()?.code === 'REQUEST_TIMEOUT') res.once('finish', () => req.socket.destroy());
    } catch (error) {
      // The response body failed before anything was sent: answer 500 (and log); once the status is sent,
      // only ending the connection tells the client that the body is incomplete.
      if (res.headersSent) {
        log(error);
        res.destroy();
      } else {
        for (const name of res.getHeaderNames()) res.removeHeader(name);
        try {
          writeAnswer(errorToAnswer(error, log), res, false);
        } catch {
          res.destroy();
        }
      }
    } finally {
      res.off('close', onClose);
    }
  };
}
