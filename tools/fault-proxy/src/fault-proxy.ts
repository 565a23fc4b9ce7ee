import { createServer, request as httpRequest, Agent, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { FAULT_KINDS, faultAnswer, MAX_DELAY_MS, type Fault, type FaultKind } from './faults';
import { MultipartLedger, type MultipartCounts } from './multipart-ledger';
import { describeRequest, type S3Operation, type S3Request } from './s3-request';
import { seededRandom } from './seeded-random';

/** Options of {@link startFaultProxy}. */
export interface FaultProxyOptions {
  /** Origin of the storage server to forward to, e.g. `http://127.0.0.1:4568`. */
  target: string;
  /** Share of eligible requests that get a random fault, 0 to 1. @default 0 (only injected faults) */
  rate?: number;
  /** Seed of the random draws: the same seed and the same order of requests give the same faults. @default 1 */
  seed?: number | string;
  /**
   * Kinds the random faults are drawn from, evenly; a function picks them per request (e.g. to spare a
   * server a fault it mishandles). An empty list means no random fault for that request.
   * @default every kind ({@link FAULT_KINDS})
   */
  kinds?: readonly FaultKind[] | ((request: S3Request) => readonly FaultKind[]);
  /** Which requests may get a random fault. @default every request but CORS preflights */
  eligible?: (request: S3Request) => boolean;
  /** Most random faults in all; then the proxy only forwards. @default 1000 */
  maxFaults?: number;
  /**
   * Most random faults on one request and its retries (same {@link S3Request.identity}): at 2, a client
   * that makes 3 attempts can always finish, so a failure is the client's. @default 2
   */
  maxFaultsPerRequest?: number;
  /** Hold time of a random `delay` fault, in milliseconds; at most 10000. @default 1500 */
  delayMs?: number;
  /** `Retry-After` of a random `error-503-retry-after` fault, in seconds. @default 1 */
  retryAfterSeconds?: number;
  /**
   * Headers added to `Access-Control-Expose-Headers` of made-up answers, as a bucket whose CORS rule
   * exposes them would send: without it a browser page cannot read `Retry-After`. @default ['Retry-After']
   */
  exposeHeaders?: readonly string[];
  /**
   * Keep connections open between requests. Off by default: every answer says `Connection: close`, so a
   * reset always reaches the page; on a reused connection chromium silently sends the request again.
   * @default false
   */
  keepAlive?: boolean;
  /** Longest wait for storage's answer, or for a request body, in milliseconds. @default 60000 */
  timeoutMs?: number;
}

/** One request the proxy handled. */
export interface LoggedRequest {
  /** Order of arrival, from 1. */
  seq: number;
  /** When it arrived, in milliseconds since the epoch. */
  at: number;
  method: string;
  path: string;
  operation: S3Operation;
  identity: string;
  /** Whether an earlier request had the same identity: a retry (preflights excepted). */
  repeat: boolean;
  /** The fault injected, if any. */
  fault: FaultKind | undefined;
  /** Storage's status, when the request was forwarded and storage answered. */
  storageStatus: number | undefined;
  /** When the proxy sent the answer's headers (storage's or a made-up one), in ms since the epoch. */
  answeredAt: number | undefined;
}

/** A running proxy. */
export interface FaultProxy {
  /** `http://127.0.0.1:{port}`: give it to the upload handler as the storage `endpoint`. */
  url: string;
  /**
   * Queues one fault for the next request that `match` accepts (default: the next eligible one), before
   * and beside the random ones. Injected faults ignore `maxFaults` and `maxFaultsPerRequest`.
   */
  inject(fault: FaultKind | Fault, match?: (request: S3Request) => boolean): void;
  /** Changes the share of requests that get a random fault, 0 to 1. */
  setRate(rate: number): void;
  /** Faults injected so far, per kind. */
  injected(): Record<FaultKind, number>;
  /** The requests handled so far, in order of arrival (at most the first 20000). */
  requests(): readonly LoggedRequest[];
  /** Requests that repeated an earlier one (same identity): the retries storage saw. */
  retries(): number;
  /** Multipart uploads created, completed, aborted, and the orphans, by storage's answers. */
  multipart(): MultipartCounts;
  /** Forgets counts, log, ledger and queued faults (not the random sequence). */
  reset(): void;
  /** Stops listening and cuts every open connection. */
  close(): Promise<void>;
}

const MAX_LOG = 20_000;
const MAX_IDENTITIES = 100_000;
/** Bytes of an answer kept for the ledger or a truncation: S3's XML answers are far smaller. */
const MAX_BODY_KEPT = 64 * 1024;
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'upgrade', 'te', 'trailer']);
const CORS_HEADERS = /^(access-control-|vary$)/i;

function copyHeaders(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name.toLowerCase())) out[name] = value;
  }
  return out;
}

const zeroCounts = (): Record<FaultKind, number> =>
  Object.fromEntries([...FAULT_KINDS, 'flip-byte'].map((kind) => [kind, 0])) as Record<FaultKind, number>;

/**
 * Starts an HTTP proxy on 127.0.0.1 (a free port) that forwards every request to `options.target` and
 * injects faults: the ones queued with {@link FaultProxy.inject}, and on a seeded share (`rate`) of the
 * other eligible requests, a random kind. CORS preflights pass through untouched; made-up answers carry
 * the CORS headers storage sent to that origin (or, before any, `Access-Control-Allow-Origin: <origin>`
 * and `Expose-Headers: ETag`), except the `no-cors` fault. The `Host` header is forwarded as sent, so
 * SigV4 signatures made for the proxy's address verify on storage.
 *
 * @example
 * const proxy = await startFaultProxy({ target: storage.endpoint, rate: 0.1, seed: 7 });
 * createUploadHandler({ ...settings, endpoint: proxy.url });
 * proxy.inject('error-503', (r) => r.operation === 'PutObject');
 */
export async function startFaultProxy(options: FaultProxyOptions): Promise<FaultProxy> {
  const target = new URL(options.target);
  const kindsOption = options.kinds ?? FAULT_KINDS;
  const kindsFor = typeof kindsOption === 'function' ? kindsOption : () => kindsOption;
  const eligible = options.eligible ?? ((request: S3Request) => request.operation !== 'Preflight');
  const maxFaults = options.maxFaults ?? 1000;
  const maxPerRequest = options.maxFaultsPerRequest ?? 2;
  const delayMs = Math.min(options.delayMs ?? 1500, MAX_DELAY_MS);
  const retryAfter = String(options.retryAfterSeconds ?? 1);
  const exposeHeaders = options.exposeHeaders ?? ['Retry-After'];
  const keepAlive = options.keepAlive ?? false;
  const timeoutMs = options.timeoutMs ?? 60_000;
  const random = seededRandom(options.seed ?? 1);
  let rate = options.rate ?? 0;

  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const sockets = new Set<Socket>();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const queue: { fault: Fault; match: (request: S3Request) => boolean }[] = [];
  const ledger = new MultipartLedger();
  /** CORS headers storage sent to each origin on real answers, reused on made-up ones. */
  const learnedCors = new Map<string, Record<string, string>>();
  let counts = zeroCounts();
  let log: LoggedRequest[] = [];
  let seen = new Set<string>();
  let faultsPerIdentity = new Map<string, number>();
  let randomFaults = 0;
  let retries = 0;
  let seq = 0;

  const later = (fn: () => void, ms: number) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      fn();
    }, ms);
    timers.add(timer);
  };

  function pickFault(request: S3Request): Fault | undefined {
    if (!eligible(request)) return undefined;
    const queued = queue.findIndex((entry) => entry.match(request));
    if (queued >= 0) return queue.splice(queued, 1)[0]!.fault;
    // Two draws per eligible request, whatever the outcome, so that the sequence depends only on the order.
    const [draw, pick] = [random(), random()];
    const kinds = kindsFor(request);
    if (draw >= rate || randomFaults >= maxFaults || kinds.length === 0) return undefined;
    const already = faultsPerIdentity.get(request.identity) ?? 0;
    if (already >= maxPerRequest) return undefined;
    if (faultsPerIdentity.size < MAX_IDENTITIES) faultsPerIdentity.set(request.identity, already + 1);
    randomFaults += 1;
    const kind = kinds[Math.floor(pick * kinds.length)]!;
    return { kind, delayMs, retryAfter };
  }

  function corsFor(origin: string | undefined): Record<string, string> {
    if (!origin) return {};
    const base = learnedCors.get(origin) ?? {
      'access-control-allow-origin': origin,
      'access-control-expose-headers': 'ETag',
      vary: 'Origin',
    };
    const exposed = new Set(
      (base['access-control-expose-headers'] ?? '')
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean),
    );
    for (const name of exposeHeaders) exposed.add(name);
    return { ...base, 'access-control-expose-headers': [...exposed].join(', ') };
  }

  function learnCors(request: S3Request, origin: string | undefined, headers: IncomingHttpHeaders) {
    if (!origin || request.operation === 'Preflight' || !headers['access-control-allow-origin']) return;
    if (!learnedCors.has(origin) && learnedCors.size >= 100) return;
    const cors: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) {
      if (CORS_HEADERS.test(name) && value !== undefined) cors[name.toLowerCase()] = String(value);
    }
    learnedCors.set(origin, cors);
  }

  function answerHeaders(headers: Record<string, string | string[]>): Record<string, string | string[]> {
    return keepAlive ? headers : { ...headers, connection: 'close' };
  }

  function forward(
    req: IncomingMessage,
    res: ServerResponse,
    request: S3Request,
    entry: LoggedRequest | undefined,
    mode: 'plain' | 'drop-etag' | 'truncate' | 'reset' | 'flip-byte',
  ) {
    if (req.destroyed || res.destroyed) return;
    const upstream = httpRequest({
      agent,
      protocol: target.protocol,
      hostname: target.hostname,
      port: target.port,
      method: req.method,
      path: req.url,
      headers: copyHeaders(req.headers),
    });
    upstream.setTimeout(timeoutMs, () => upstream.destroy(new Error(`storage did not answer in ${timeoutMs} ms`)));
    upstream.on('error', () => {
      if (!res.headersSent && !res.destroyed) {
        res.writeHead(502, answerHeaders({ 'content-type': 'text/plain', ...corsFor(req.headers.origin) }));
        res.end('fault-proxy: storage unreachable');
      } else res.destroy();
    });
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });

    if (mode === 'reset') {
      const length = Number(req.headers['content-length'] ?? 0);
      const cutAt = Math.max(1, Math.floor(length / 2));
      let sent = 0;
      const cut = () => {
        req.socket.destroy();
        upstream.destroy();
      };
      if (!(length > 0)) return cut();
      req.on('data', (chunk: Buffer) => {
        if (sent >= cutAt) return;
        const part = chunk.subarray(0, cutAt - sent);
        sent += part.length;
        upstream.write(part);
        if (sent >= cutAt) cut();
      });
      return;
    }

    if (mode === 'flip-byte') {
      let flipped = false;
      req.on('data', (chunk: Buffer) => {
        if (!flipped && chunk.length > 0) {
          flipped = true;
          chunk = Buffer.from(chunk);
          chunk[0] = chunk[0]! ^ 0xff;
        }
        if (!upstream.write(chunk)) {
          req.pause();
          upstream.once('drain', () => req.resume());
        }
      });
      req.on('end', () => upstream.end());
    } else req.pipe(upstream);
    upstream.on('response', (answer) => {
      const status = answer.statusCode ?? 502;
      if (entry) entry.storageStatus = status;
      learnCors(request, req.headers.origin, answer.headers);
      const headers = answerHeaders(copyHeaders(answer.headers));
      if (mode === 'drop-etag') delete headers.etag;
      const keep = mode === 'truncate' || MultipartLedger.wantsBody(request);
      const kept: Buffer[] = [];
      let keptBytes = 0;
      answer.on('data', (chunk: Buffer) => {
        if (!keep || keptBytes >= MAX_BODY_KEPT) return;
        kept.push(chunk);
        keptBytes += chunk.length;
      });
      answer.on('end', () => ledger.observe(request, status, Buffer.concat(kept).toString('utf8')));
      if (mode !== 'truncate') {
        res.writeHead(status, headers);
        if (entry) entry.answeredAt = Date.now();
        answer.pipe(res);
        return;
      }
      // Storage's headers, then half the body of a chunked answer that never ends: a broken answer.
      answer.on('end', () => {
        if (res.destroyed) return;
        delete headers['content-length'];
        headers['transfer-encoding'] = 'chunked';
        res.writeHead(status, headers);
        res.flushHeaders();
        if (entry) entry.answeredAt = Date.now();
        const half = Buffer.concat(kept).subarray(0, Math.floor(keptBytes / 2));
        if (half.length > 0) res.write(half, () => later(() => res.destroy(), 10));
        else later(() => res.destroy(), 20);
      });
    });
  }

  function handle(req: IncomingMessage, res: ServerResponse) {
    const request = describeRequest(req.method ?? 'GET', req.url ?? '/');
    const fault = pickFault(request);
    const repeat = request.operation !== 'Preflight' && seen.has(request.identity);
    if (request.operation !== 'Preflight' && seen.size < MAX_IDENTITIES) seen.add(request.identity);
    if (repeat) retries += 1;
    seq += 1;
    const entry: LoggedRequest | undefined =
      log.length < MAX_LOG
        ? { seq, at: Date.now(), method: request.method, path: request.path, operation: request.operation, identity: request.identity, repeat, fault: fault?.kind, storageStatus: undefined, answeredAt: undefined }
        : undefined;
    if (entry) log.push(entry);
    if (fault) counts[fault.kind] += 1;

    if (!fault) return forward(req, res, request, entry, 'plain');
    switch (fault.kind) {
      case 'delay':
        return later(() => forward(req, res, request, entry, 'plain'), Math.min(fault.delayMs ?? delayMs, MAX_DELAY_MS));
      case 'reset':
      case 'drop-etag':
      case 'truncate':
      case 'flip-byte':
        return forward(req, res, request, entry, fault.kind);
      default: {
        const answer = faultAnswer(fault, `FAULT${seq}`)!;
        // Read the whole body first: a browser still sending sees an early answer as a reset.
        req.resume();
        req.on('end', () => {
          if (res.destroyed) return;
          const cors = answer.cors ? corsFor(req.headers.origin) : {};
          res.writeHead(answer.status, answerHeaders({ ...answer.headers, ...cors, 'content-length': String(Buffer.byteLength(answer.body)) }));
          res.end(answer.body);
          if (entry) entry.answeredAt = Date.now();
        });
      }
    }
  }

  const server = createServer(handle);
  server.requestTimeout = timeoutMs;
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('clientError', (_error, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    inject(fault, match = eligible) {
      queue.push({ fault: typeof fault === 'string' ? { kind: fault, delayMs, retryAfter } : fault, match });
    },
    setRate(value) {
      if (!(value >= 0 && value <= 1)) throw new Error(`rate must be between 0 and 1. Got ${value}.`);
      rate = value;
    },
    injected: () => ({ ...counts }),
    requests: () => log,
    retries: () => retries,
    multipart: () => ledger.counts(),
    reset() {
      counts = zeroCounts();
      log = [];
      seen = new Set();
      faultsPerIdentity = new Map();
      randomFaults = 0;
      retries = 0;
      queue.length = 0;
      ledger.clear();
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      agent.destroy();
      await closed;
    },
  };
}
