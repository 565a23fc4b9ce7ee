import { Agent, createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Transform, pipeline, type TransformCallback } from 'node:stream';

/**
 * Size of the slices a request body is let through in, bytes: small enough for a steady rate, large
 * enough to keep the timer count low (a 40 MiB body is 640 slices).
 */
const SLICE_BYTES = 64 * 1024;

/** One request the proxy forwarded. */
export interface ProxiedRequest {
  method: string;
  /** Path and query, e.g. `/bucket/key?partNumber=1&uploadId=...`. */
  path: string;
  /** When it arrived, in milliseconds since the epoch. */
  at: number;
}

/** A running {@link startThrottleProxy}. */
export interface ThrottleProxy {
  /** `http://127.0.0.1:{port}`: give it to the upload handler as the storage `endpoint`. */
  url: string;
  /** Every request forwarded so far, in order of arrival. */
  readonly requests: readonly ProxiedRequest[];
  /** Changes the upload bandwidth, bytes per second (`Infinity`: unbounded). */
  setBytesPerSecond(bytesPerSecond: number): void;
  /**
   * Holds every request body at the proxy until {@link ThrottleProxy.release}: storage gets no more bytes
   * (the browser only fills the loopback socket buffers), so no upload can end. A test that races a user's
   * click against an upload holds it until the click has landed, whatever the machine's load. Requests
   * without a body (preflights, DELETE) pass.
   */
  hold(): void;
  /** Lets the held bodies through again, at the current bandwidth. Does nothing when none is held. */
  release(): void;
  close(): Promise<void>;
}

/**
 * A reverse proxy on 127.0.0.1 in front of an S3-compatible server that lets request bodies through at a
 * bounded rate, shared by all requests (one uplink), and logs every request. The same throttle for every
 * engine: Firefox and WebKit have no DevTools network emulation. It forwards the `Host` header as it came
 * (the presigned URL and SigV4 signatures name the proxy's host), storage's CORS answers included.
 *
 * The browser counts bytes as sent once the kernel has them, so its progress runs a few MiB ahead of what
 * passed the proxy: loopback socket buffers. Bodies several times that size show the throttle.
 *
 * @param target - Origin of the storage server, e.g. `http://127.0.0.1:4568`.
 * @param bytesPerSecond - Upload bandwidth; `Infinity` for none.
 */
export async function startThrottleProxy(target: string, bytesPerSecond: number): Promise<ThrottleProxy> {
  const upstream = new URL(target);
  const agent = new Agent({ keepAlive: false });
  const requests: ProxiedRequest[] = [];
  let rate = bytesPerSecond;
  /** When the shared uplink is free again, in ms since the epoch. */
  let uplinkFreeAt = 0;
  /** While held ({@link ThrottleProxy.hold}): settles on release. */
  let held: { released: Promise<void>; release: () => void } | undefined;
  const sockets = new Set<Socket>();

  /** Waits for the uplink to carry `bytes` at the current rate. */
  const reserve = (bytes: number): number => {
    if (!Number.isFinite(rate)) return 0;
    const now = Date.now();
    const start = Math.max(now, uplinkFreeAt);
    uplinkFreeAt = start + (bytes / rate) * 1000;
    return uplinkFreeAt - now;
  };

  const throttle = () =>
    new Transform({
      transform(chunk: Buffer, _encoding, done: TransformCallback) {
        const slices: Buffer[] = [];
        for (let offset = 0; offset < chunk.length; offset += SLICE_BYTES) slices.push(chunk.subarray(offset, offset + SLICE_BYTES));
        const next = () => {
          if (held) return void held.released.then(next);
          const slice = slices.shift();
          if (!slice) return done();
          setTimeout(() => {
            if (held) {
              slices.unshift(slice);
              return void held.released.then(next);
            }
            this.push(slice);
            next();
          }, reserve(slice.length));
        };
        next();
      },
    });

  const release = () => {
    const current = held;
    held = undefined;
    uplinkFreeAt = 0;
    current?.release();
  };

  const forward = (req: IncomingMessage, res: ServerResponse) => {
    requests.push({ method: req.method ?? 'GET', path: req.url ?? '/', at: Date.now() });
    const outgoing = httpRequest(
      {
        agent,
        hostname: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        pipeline(answer, res, () => {});
      },
    );
    outgoing.on('error', () => {
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    });
    // The browser cancelled (or reset): storage sees the body end short, as it would without the proxy.
    res.on('close', () => {
      if (!res.writableFinished) outgoing.destroy();
    });
    pipeline(req, throttle(), outgoing, () => {});
  };

  const server = createServer(forward);
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    setBytesPerSecond(next) {
      rate = next;
    },
    hold() {
      if (held) return;
      let release = () => {};
      const released = new Promise<void>((resolve) => (release = resolve));
      held = { released, release };
    },
    release,
    async close() {
      release();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
      agent.destroy();
    },
  };
}
