import { createHash, randomBytes } from 'node:crypto';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { startLocalS3, type LocalS3 } from '@upbeam/local-s3';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPagesHandler } from '../src/adapters/next';
import { BODY_TIMEOUT_MS, toNodeHandler, type NodeHandlerOptions } from '../src/adapters/node';
import { createUploadHandler, type UploadHandler } from '../src/index';
import { MAX_BODY_BYTES, MAX_COMPLETE_BODY_BYTES } from '../src/request-body';

// The node adapter on real servers on 127.0.0.1: Express 5 (raw body, and behind express.json()) and a
// plain node:http server. Each prepares an upload through the adapter, then the file is PUT to the
// returned URL on the embedded S3-compatible server (s3rver, which verifies the signature) and read back.

let storage: LocalS3;
let reader: S3Client;
const servers: Server[] = [];
/** What the handler saw of each request (URL, selected headers), most recent last. */
const seen: { url: string; host: string | null; contentLength: string | null }[] = [];
const onError = vi.fn();

let handler: UploadHandler;

async function listen(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** node:http: the adapter on one path, 404 elsewhere. */
function nodeHttpServer(fetchHandler: UploadHandler, options?: NodeHandlerOptions): Server {
  const upload = toNodeHandler(fetchHandler, options);
  return createServer((req, res) => {
    if (req.url?.split('?')[0] === '/api/s3-upload') void upload(req, res);
    else res.writeHead(404).end();
  });
}

const origins: Record<'express' | 'expressJson' | 'nodeHttp' | 'pages', string> = {
  express: '',
  expressJson: '',
  nodeHttp: '',
  pages: '',
};

beforeAll(async () => {
  storage = await startLocalS3();
  reader = storage.createClient();
  handler = createUploadHandler({
    ...storage.handlerSettings,
    onError,
    onBeforeUpload: ({ request }) => {
      seen.push({
        url: request.url,
        host: request.headers.get('host'),
        contentLength: request.headers.get('content-length'),
      });
    },
  });

  // Express, raw body: mounted with app.use, so Express strips the mount path from req.url (originalUrl keeps it).
  const raw = express();
  raw.use('/api/s3-upload', toNodeHandler(handler));
  origins.express = await listen(createServer(raw));

  // Express with express.json() in front: the body arrives parsed (req.body) and the stream is consumed.
  const parsed = express();
  parsed.use(express.json());
  parsed.all('/api/s3-upload', toNodeHandler(handler));
  origins.expressJson = await listen(createServer(parsed));

  origins.nodeHttp = await listen(nodeHttpServer(handler));

  // The Next.js Pages Router route on node:http, as Next.js calls it with `bodyParser: false`.
  const pages = createPagesHandler({ ...storage.handlerSettings, onError });
  origins.pages = await listen(createServer((req, res) => void pages(req, res)));
});

afterAll(async () => {
  reader?.destroy();
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  await storage?.close();
});

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

const prepareBody = (filename: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ filename, filetype: 'application/octet-stream', _upload: { strategy: 'presigned' }, ...extra });

function prepare(origin: string, body: BodyInit, headers: Record<string, string> = {}) {
  return fetch(`${origin}/api/s3-upload?from=test`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
}

/** A request with full control of its headers (fetch forbids Host) and of how the body is sent. */
function send(
  origin: string,
  options: { method?: string; headers?: Record<string, string>; chunks?: Buffer[] },
): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${origin}/api/s3-upload`, { method: options.method ?? 'POST', headers: options.headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (part: Buffer) => parts.push(part));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(parts).toString() }));
      res.on('error', reject);
    });
    req.on('error', reject);
    for (const chunk of options.chunks ?? []) req.write(chunk);
    req.end();
  });
}

const servers_ = ['express', 'expressJson', 'nodeHttp', 'pages'] as const;

describe.each(servers_)('prepare through the node adapter on %s, then PUT to storage', (name) => {
  it('stores the same bytes (256 KiB)', async () => {
    const bytes = randomBytes(256 * 1024 + 7);
    const response = await prepare(origins[name], prepareBody(`report ${name}.bin`));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const answer = (await response.json()) as { url: string; key: string; bucket: string; headers: Record<string, string> };
    expect(answer.bucket).toBe(storage.bucket);
    expect(answer.key).toMatch(new RegExp(`^next-s3-uploads/[A-Za-z0-9_-]{21}/report-${name}\\.bin$`));

    const put = await fetch(answer.url, { method: 'PUT', body: bytes, headers: answer.headers });
    expect(put.status, await put.clone().text()).toBe(200);

    const object = await reader.send(new GetObjectCommand({ Bucket: storage.bucket, Key: answer.key }));
    const stored = await object.Body!.transformToByteArray();
    expect(stored.byteLength).toBe(bytes.byteLength);
    expect(sha256(stored)).toBe(sha256(bytes));
  });

  it(`answers 413 { code: 'PAYLOAD_TOO_LARGE' } to a body over ${MAX_BODY_BYTES} bytes (declared length)`, async () => {
    const body = prepareBody('a.bin', { pad: 'x'.repeat(MAX_BODY_BYTES) });
    const response = await prepare(origins[name], body);
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({
      error: expect.stringContaining(`${MAX_BODY_BYTES} bytes`),
      code: 'PAYLOAD_TOO_LARGE',
    });
  });

  it('answers 405 with Allow: POST to a GET', async () => {
    const response = await fetch(`${origins[name]}/api/s3-upload`);
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect(await response.json()).toMatchObject({ code: 'METHOD_NOT_ALLOWED' });
  });
});

describe('node adapter: the request the handler sees', () => {
  it('keeps the path Express stripped at its mount point, and the query', async () => {
    await prepare(origins.express, prepareBody('a.bin'));
    expect(seen.at(-1)?.url).toBe(`${origins.express}/api/s3-upload?from=test`);
  });

  it('re-serializes the body express.json() parsed, without the old Content-Length', async () => {
    const body = prepareBody('a.bin', { note: 'spaced   out' }).replace(/,/g, ' ,  ');
    const response = await prepare(origins.expressJson, body);
    expect(response.status).toBe(200);
    const contentLength = seen.at(-1)?.contentLength;
    expect(contentLength === null || contentLength === undefined || Number(contentLength) !== Buffer.byteLength(body)).toBe(true);
  });

  it('streams a chunked body (no Content-Length) and cuts it at the cap with 413', async () => {
    const ok = await send(origins.nodeHttp, {
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      chunks: [Buffer.from(prepareBody('chunked.bin').slice(0, 20)), Buffer.from(prepareBody('chunked.bin').slice(20))],
    });
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body).key).toMatch(/chunked\.bin$/);

    const chunk = Buffer.alloc(4096, 'x');
    const tooLarge = await send(origins.nodeHttp, {
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      chunks: Array.from({ length: MAX_COMPLETE_BODY_BYTES / chunk.byteLength + 1 }, () => chunk),
    });
    expect(tooLarge.status).toBe(413);
    expect(JSON.parse(tooLarge.body)).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    expect(tooLarge.headers.connection).toBe('close');
  });

  it('lets a multipart complete of 10000 parts (~680 KB) through to the handler; any other body over 16 KiB gets 413', async () => {
    // Part 10000 is listed as a second part 1: the handler's own check refuses that (400) after reading the
    // whole body, before any storage call.
    const parts = Array.from({ length: 10_000 }, (_, index) => ({ partNumber: index === 9_999 ? 1 : index + 1, etag: `"${createHash('md5').update(String(index)).digest('hex')}"` }));
    const completeBody = (ticket: string) =>
      JSON.stringify({
        filename: 'big.bin',
        filetype: 'application/octet-stream',
        _upload: { strategy: 'presigned', multipart: { action: 'complete', ticket, parts } },
      });
    // A real ticket, for an upload of 10000 parts of 5 MiB: the body is read whole and parsed.
    const created = await prepare(
      origins.nodeHttp,
      JSON.stringify({
        filename: 'big.bin',
        filetype: 'application/octet-stream',
        filesize: 10_000 * 5 * 1024 * 1024,
        _upload: { strategy: 'presigned', multipart: { action: 'create', partSize: 5 * 1024 * 1024 } },
      }),
    );
    expect(created.status).toBe(200);
    const { ticket } = (await created.json()) as { ticket: string };
    expect(Buffer.byteLength(completeBody(ticket))).toBeGreaterThan(600_000);
    const response = await prepare(origins.nodeHttp, completeBody(ticket));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'INVALID_REQUEST' });
    // A forged ticket does not get past the first 16 KiB.
    const forged = await prepare(origins.nodeHttp, completeBody('not-a-ticket'));
    expect(forged.status).toBe(413);
    expect(await forged.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });

    const padded = await prepare(origins.nodeHttp, prepareBody('a.bin', { pad: 'x'.repeat(MAX_BODY_BYTES) }));
    expect(padded.status).toBe(413);
    expect(await padded.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', error: expect.stringContaining(`${MAX_BODY_BYTES} bytes`) });
  });

  it('applies a smaller maxBodyBytes before the handler sees the body', async () => {
    const inner = vi.fn(handler);
    const origin = await listen(nodeHttpServer(inner, { maxBodyBytes: 64 }));
    const response = await prepare(origin, prepareBody('a.bin', { pad: 'x'.repeat(100) }));
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', error: expect.stringContaining('64 bytes') });
    expect(inner).not.toHaveBeenCalled();
  });

  it('uses Host, ignoring X-Forwarded-* unless trustProxy is set', async () => {
    const headers = {
      'content-type': 'application/json',
      host: 'app.example:8080',
      'x-forwarded-host': 'evil.example',
      'x-forwarded-proto': 'https',
    };
    const chunks = [Buffer.from(prepareBody('a.bin'))];
    expect((await send(origins.nodeHttp, { headers, chunks })).status).toBe(200);
    expect(seen.at(-1)?.url).toBe('http://app.example:8080/api/s3-upload');

    const trusting = await listen(nodeHttpServer(handler, { trustProxy: true }));
    const forwarded = { ...headers, 'x-forwarded-host': 'uploads.example, proxy.internal', 'x-forwarded-proto': 'https,http' };
    expect((await send(trusting, { headers: forwarded, chunks })).status).toBe(200);
    expect(seen.at(-1)?.url).toBe('https://uploads.example/api/s3-upload');

    // Values that are not a host or a scheme are ignored, even when trusted.
    const bogus = { ...headers, 'x-forwarded-host': 'a/b@c', 'x-forwarded-proto': 'javascript' };
    expect((await send(trusting, { headers: bogus, chunks })).status).toBe(200);
    expect(seen.at(-1)?.url).toBe('http://app.example:8080/api/s3-upload');
  });

  it('answers 400 to a Host header that is not a host, and a request target cannot change the host', async () => {
    const bad = await send(origins.nodeHttp, {
      headers: { 'content-type': 'application/json', host: 'a b@evil.example' },
      chunks: [Buffer.from(prepareBody('a.bin'))],
    });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body)).toMatchObject({ code: 'INVALID_REQUEST' });

    const origin = await listen(createServer((req, res) => void toNodeHandler(handler)(req, res)));
    const response = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port: new URL(origin).port, path: '//evil.example/api/s3-upload', method: 'POST', headers: { 'content-type': 'application/json' } },
        (res) => resolve(res.resume().statusCode!),
      );
      req.on('error', reject);
      req.end(prepareBody('a.bin'));
    });
    expect(response).toBe(200);
    expect(new URL(seen.at(-1)!.url).host).toBe(new URL(origin).host);
  });
});

/**
 * A raw HTTP/1.1 request on its own socket: the head, then the body a byte every `intervalMs` (at most
 * `bytes` bytes, bounded). Resolves with what the server sent and whether it closed the connection.
 */
function slowRequest(origin: string, options: { contentLength: number; bytes: number; intervalMs: number }) {
  const { port } = new URL(origin);
  return new Promise<{ response: string; closedByServer: boolean; elapsedMs: number }>((resolve, reject) => {
    const started = Date.now();
    const socket = connect(Number(port), '127.0.0.1');
    let response = '';
    let sent = 0;
    const drip = setInterval(() => {
      if (sent >= options.bytes || socket.destroyed) return clearInterval(drip);
      socket.write('{');
      sent += 1;
    }, options.intervalMs);
    socket.setEncoding('utf8');
    socket.on('data', (data: string) => (response += data));
    socket.on('error', reject);
    socket.on('end', () => {
      clearInterval(drip);
      socket.destroy();
      resolve({ response, closedByServer: true, elapsedMs: Date.now() - started });
    });
    socket.write(
      `POST /api/s3-upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${options.contentLength}\r\n\r\n`,
    );
  });
}

describe('node adapter: slow request bodies', () => {
  it('defaults to a 10 s body timeout', () => {
    expect(BODY_TIMEOUT_MS).toBe(10_000);
  });

  it('answers 408 REQUEST_TIMEOUT to a body sent a byte at a time, then closes the connection', async () => {
    const inner = vi.fn(handler);
    const server = nodeHttpServer(inner, { bodyTimeoutMs: 300 });
    const origin = await listen(server);
    const result = await slowRequest(origin, { contentLength: 200, bytes: 40, intervalMs: 50 });
    expect(result.response).toMatch(/^HTTP\/1\.1 408 /);
    expect(result.response).toContain('"code":"REQUEST_TIMEOUT"');
    expect(result.response.toLowerCase()).toContain('connection: close');
    expect(result.closedByServer).toBe(true);
    expect(result.elapsedMs).toBeLessThan(5_000);
    // Nothing is left open on the server side.
    await vi.waitFor(async () => expect(await new Promise((done) => server.getConnections((_, count) => done(count)))).toBe(0));
  });

  it('answers 408 to a Content-Length that is never reached (Pages Router handler too)', async () => {
    const pages = createPagesHandler({ ...storage.handlerSettings, onError }, { bodyTimeoutMs: 300 });
    const server = createServer((req, res) => void pages(req, res));
    const origin = await listen(server);
    const result = await slowRequest(origin, { contentLength: 100, bytes: 10, intervalMs: 1 });
    expect(result.response).toMatch(/^HTTP\/1\.1 408 /);
    expect(result.closedByServer).toBe(true);
    await vi.waitFor(async () => expect(await new Promise((done) => server.getConnections((_, count) => done(count)))).toBe(0));
  });

  it('calls no handler for a small body the client leaves before its end, and logs nothing', async () => {
    const inner = vi.fn(handler);
    const logged = vi.fn();
    const origin = await listen(nodeHttpServer(inner, { onError: logged }));
    const socket = connect(Number(new URL(origin).port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write('POST /api/s3-upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"file');
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(inner).not.toHaveBeenCalled();
    expect(logged).not.toHaveBeenCalled();
  });

  it('keeps the connection of a body that arrives in time, and its timer does not fire later', async () => {
    const logged = vi.fn();
    const origin = await listen(nodeHttpServer(handler, { bodyTimeoutMs: 300, onError: logged }));
    const first = await send(origin, { headers: { 'content-type': 'application/json' }, chunks: [Buffer.from(prepareBody('in-time.bin'))] });
    expect(first.status).toBe(200);
    expect(first.headers.connection).not.toBe('close');
    await new Promise((done) => setTimeout(done, 400));
    expect(logged).not.toHaveBeenCalled();
  });
});

describe('node adapter: the response it writes', () => {
  it('writes status, every Set-Cookie and a 6 MiB streamed body intact (backpressure)', async () => {
    const payload = randomBytes(6 * 1024 * 1024);
    const streaming: UploadHandler = async () => {
      let offset = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (offset >= payload.byteLength) return controller.close();
          controller.enqueue(payload.subarray(offset, offset + 64 * 1024));
          offset += 64 * 1024;
        },
      });
      const headers = new Headers({ 'content-type': 'application/octet-stream', 'x-upbeam': 'yes' });
      headers.append('set-cookie', 'a=1; Path=/');
      headers.append('set-cookie', 'b=2; Path=/');
      return new Response(body, { status: 201, headers });
    };
    const origin = await listen(nodeHttpServer(streaming));
    const response = await fetch(`${origin}/api/s3-upload`, { method: 'POST' });
    expect(response.status).toBe(201);
    expect(response.headers.get('x-upbeam')).toBe('yes');
    expect(response.headers.getSetCookie()).toEqual(['a=1; Path=/', 'b=2; Path=/']);
    const received = new Uint8Array(await response.arrayBuffer());
    expect(sha256(received)).toBe(sha256(payload));
  });

  it('sends a JSON answer of one chunk with its Content-Length, not chunked', async () => {
    const answer = await send(origins.nodeHttp, { headers: { 'content-type': 'application/json' }, chunks: [Buffer.from(prepareBody('length.bin'))] });
    expect(answer.status).toBe(200);
    expect(answer.headers['transfer-encoding']).toBeUndefined();
    expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.body));
    expect(JSON.parse(answer.body).key).toMatch(/length\.bin$/);
  });

  it('answers 500 { error: "Internal Server Error" } when the handler throws, and reports it to onError', async () => {
    const failures: unknown[] = [];
    const origin = await listen(
      nodeHttpServer(
        async () => {
          throw new Error('arn:aws:iam::123456789012:user/secret-name');
        },
        { onError: (error) => failures.push(error) },
      ),
    );
    const response = await prepare(origin, prepareBody('a.bin'));
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({ error: 'Internal Server Error' });
    expect(text).not.toContain('arn:');
    expect(String(failures[0])).toContain('secret-name');
  });

  it("aborts the Request's signal when the client goes away before the answer", async () => {
    let signalled!: () => void;
    const aborted = new Promise<void>((resolve) => (signalled = resolve));
    const origin = await listen(
      nodeHttpServer(async (request) => {
        request.signal.addEventListener('abort', () => signalled());
        await aborted;
        return new Response(null, { status: 204 });
      }),
    );
    const req = httpRequest(`${origin}/api/s3-upload`, { method: 'POST', headers: { 'content-type': 'application/json' } });
    req.on('error', () => {});
    req.end(prepareBody('a.bin'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    req.destroy();
    await expect(Promise.race([aborted.then(() => 'aborted'), new Promise((r) => setTimeout(() => r('timeout'), 5000))])).resolves.toBe('aborted');
  });
});

describe('node adapter: the Request hooks receive', () => {
  /** A body the hooks below read back. */
  const sent = prepareBody('hooked.bin', { note: 'from the page' });

  /** An upload handler whose `onBeforeUpload` runs `inspect` on its request and keeps what it returns. */
  function inspecting(inspect: (request: Request) => Promise<Record<string, unknown>>) {
    const reports: Record<string, unknown>[] = [];
    const upload = createUploadHandler({
      ...storage.handlerSettings,
      onError,
      onBeforeUpload: async ({ request }) => {
        reports.push(await inspect(request));
      },
    });
    return { upload, reports };
  }

  it('is a genuine Request with its body unread: headers, cookies, clone().json(), new Request(request) work (node:http, express.json())', async () => {
    const { upload, reports } = inspecting(async (request) => {
      const report: Record<string, unknown> = {
        isRequest: request instanceof Request,
        url: request.url.replace(/^http:\/\/[^/]+/, ''),
        method: request.method,
        cookie: request.headers.get('cookie'),
        contentType: request.headers.get('content-type'),
        usedBefore: request.bodyUsed,
        cloned: await request.clone().json(),
        aborted: request.signal.aborted,
      };
      const copy = new Request(request);
      report.copied = await copy.json();
      report.usedAfterCopy = request.bodyUsed;
      return report;
    });
    const parsed = express();
    parsed.use(express.json());
    parsed.all('/api/s3-upload', toNodeHandler(upload));
    for (const origin of [await listen(nodeHttpServer(upload)), await listen(createServer(parsed))]) {
      const response = await prepare(origin, sent, { cookie: 'session=abc123; theme=dark' });
      expect(response.status, await response.clone().text()).toBe(200);
      expect((await response.json()).key).toMatch(/hooked\.bin$/);
    }
    const expected = {
      isRequest: true,
      url: '/api/s3-upload?from=test',
      method: 'POST',
      cookie: 'session=abc123; theme=dark',
      contentType: 'application/json',
      usedBefore: false,
      cloned: JSON.parse(sent),
      aborted: false,
      copied: JSON.parse(sent),
      usedAfterCopy: true,
    };
    expect(reports).toEqual([expected, expected]);
  });

  it('can be forwarded with fetch(request): method, path, headers, cookies and body reach the other server', async () => {
    const received: { method?: string; url?: string; cookie?: string; contentType?: string; body: string }[] = [];
    const other = await listen(
      createServer((req, res) => {
        const parts: Buffer[] = [];
        req.on('data', (part: Buffer) => parts.push(part));
        req.on('end', () => {
          received.push({ method: req.method, url: req.url, cookie: req.headers.cookie, contentType: req.headers['content-type'], body: Buffer.concat(parts).toString() });
          res.writeHead(200, { 'content-type': 'application/json' }).end('{"user":"u1"}');
        });
      }),
    );
    const { upload, reports } = inspecting(async (request) => {
      const answer = await fetch(request);
      return { status: answer.status, answer: await answer.json() };
    });
    // The page's request names the other server in Host: its URL is the other server's, as behind a proxy.
    const response = await send(await listen(nodeHttpServer(upload)), {
      headers: { host: new URL(other).host, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(sent)), cookie: 'session=abc123' },
      chunks: [Buffer.from(sent)],
    });
    expect(response.status, response.body).toBe(200);
    expect(reports).toEqual([{ status: 200, answer: { user: 'u1' } }]);
    expect(received).toEqual([{ method: 'POST', url: '/api/s3-upload', cookie: 'session=abc123', contentType: 'application/json', body: sent }]);
  });

  /** Sends a preparation request and closes the connection 100 ms later, before any answer. */
  async function postThenLeave(origin: string): Promise<void> {
    const req = httpRequest(`${origin}/api/s3-upload`, { method: 'POST', headers: { 'content-type': 'application/json' } });
    req.on('error', () => {});
    req.end(sent);
    await new Promise((resolve) => setTimeout(resolve, 100));
    req.destroy();
  }

  it('has a signal that aborts when the client goes away, already aborted when first read after', async () => {
    let clientGone!: () => void;
    const gone = new Promise<void>((resolve) => (clientGone = resolve));
    const { upload, reports } = inspecting(async (request) => {
      await gone;
      await new Promise((resolve) => setTimeout(resolve, 100));
      return { aborted: request.signal.aborted };
    });
    const origin = await listen(nodeHttpServer(upload));
    await postThenLeave(origin);
    clientGone();
    await vi.waitFor(() => expect(reports).toEqual([{ aborted: true }]));

    let signalled!: () => void;
    const aborted = new Promise<void>((resolve) => (signalled = resolve));
    const early = inspecting(async (request) => {
      request.signal.addEventListener('abort', () => signalled());
      await aborted;
      return { aborted: request.signal.aborted };
    });
    await postThenLeave(await listen(nodeHttpServer(early.upload)));
    await vi.waitFor(() => expect(early.reports).toEqual([{ aborted: true }]));
  });
});
