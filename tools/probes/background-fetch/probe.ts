/**
 * Can Background Fetch carry an upload here? (issue 23, item 4, measured before anything is built.)
 *
 *   pnpm --filter @upbeam/probes background-fetch
 *
 * Starts s3rver (@upbeam/local-s3) and a page on another 127.0.0.1 port (a secure context, cross-origin to
 * storage as in production), with a service worker. The page asks the upload handler for a presigned single
 * PUT and hands it to `registration.backgroundFetch.fetch()` with a 1 MiB body; the service worker reports the
 * `backgroundfetchsuccess` / `backgroundfetchfail` events. Printed as JSON: the chromium version, whether
 * `BackgroundFetchManager` exists on the page and in the worker, the permission state, what `fetch()` answered
 * (or threw), each `progress` event (`uploaded` / `uploadTotal`), the worker's events, and what storage holds.
 * Headless chromium (Debian's, through playwright-core as the tests drive it); with `--headed` under Xvfb
 * (`xvfb-run -a pnpm --filter @upbeam/probes background-fetch --headed`) to compare. Bounded: 30 s per case.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { startLocalS3 } from '@upbeam/local-s3';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '@upbeam/test-browser';
import { createUploadHandler } from '@upbeam/upload-server';
import { chromium } from 'playwright-core';

const BODY_BYTES = 1024 * 1024;
const CASE_TIMEOUT_MS = 30_000;
const headed = process.argv.includes('--headed');

/** The service worker: tells every page of each Background Fetch event, with the registration's numbers. */
const SERVICE_WORKER = `
const tell = async (type, registration, extra = {}) => {
  const numbers = registration && {
    id: registration.id, result: registration.result, failureReason: registration.failureReason,
    uploaded: registration.uploaded, uploadTotal: registration.uploadTotal, downloaded: registration.downloaded,
  };
  let status;
  try {
    const records = registration ? await registration.matchAll() : [];
    const response = records[0] && (await records[0].responseReady);
    status = response ? response.status : undefined;
  } catch (error) { status = String(error); }
  for (const client of await self.clients.matchAll({ includeUncontrolled: true })) client.postMessage({ type, numbers, status, ...extra });
};
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
self.addEventListener('message', (event) => {
  event.source.postMessage({ type: 'worker-has-api', value: typeof self.BackgroundFetchManager, registration: typeof self.registration.backgroundFetch });
});
self.addEventListener('backgroundfetchsuccess', (event) => event.waitUntil(tell('backgroundfetchsuccess', event.registration)));
self.addEventListener('backgroundfetchfail', (event) => event.waitUntil(tell('backgroundfetchfail', event.registration)));
self.addEventListener('backgroundfetchabort', (event) => event.waitUntil(tell('backgroundfetchabort', event.registration)));
`;

const PAGE = `<!doctype html><meta charset="utf-8"><title>background fetch probe</title><body>probe</body>`;

/** Where a case sends its body: the presigned PUT of the upload handler, or a fixed URL. */
interface Target {
  name: string;
  kind: 'presigned' | 'fixed';
  method: string;
  url: string;
  headers: Record<string, string>;
}

interface ProbeAnswer {
  pageHasApi: string;
  workerAnswer?: unknown;
  permission?: string;
  fetch?: unknown;
  error?: string;
  progress: unknown[];
  workerEvents: unknown[];
}

/** What runs in the page: register the worker, then hand the presigned PUT to Background Fetch. */
async function inPage({ bodyBytes, timeoutMs, target }: { bodyBytes: number; timeoutMs: number; target: Target }): Promise<ProbeAnswer> {
  const answer: ProbeAnswer = { pageHasApi: typeof (window as any).BackgroundFetchManager, progress: [], workerEvents: [] };
  const registration = await navigator.serviceWorker.register('/sw.js');
  await navigator.serviceWorker.ready;
  const done = new Promise<void>((resolve) => {
    navigator.serviceWorker.addEventListener('message', (event) => {
      if (event.data.type === 'worker-has-api') answer.workerAnswer = event.data;
      else {
        answer.workerEvents.push(event.data);
        resolve();
      }
    });
  });
  registration.active!.postMessage('api?');
  try {
    answer.permission = (await navigator.permissions.query({ name: 'background-fetch' as PermissionName })).state;
  } catch (error) {
    answer.permission = `query threw ${String(error)}`;
  }
  const manager = (registration as any).backgroundFetch;
  if (!manager) {
    answer.error = 'registration.backgroundFetch is undefined';
    return answer;
  }
  try {
    let url = target.url;
    let headers: Record<string, string> = target.headers;
    if (target.kind === 'presigned') {
      const prepared = await (
        await fetch('/api/s3-upload', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ filename: 'probe.bin', filetype: 'application/octet-stream', filesize: bodyBytes, _upload: { strategy: 'presigned' } }),
        })
      ).json();
      url = prepared.url;
      headers = prepared.headers;
    }
    const body = new Blob([new Uint8Array(bodyBytes).map((_, index) => index % 251)]);
    const request = new Request(url, { method: target.method, headers, body, mode: 'cors' });
    const started = await manager.fetch(`upbeam-probe-${target.name}`, [request], { title: 'Upload', uploadTotal: bodyBytes });
    answer.fetch = { id: started.id, uploadTotal: started.uploadTotal, result: started.result };
    started.addEventListener('progress', () =>
      answer.progress.push({ uploaded: started.uploaded, uploadTotal: started.uploadTotal, result: started.result, failureReason: started.failureReason }),
    );
  } catch (error) {
    answer.error = `${(error as Error).name}: ${(error as Error).message}`;
    return answer;
  }
  await Promise.race([done, new Promise((resolve) => setTimeout(resolve, timeoutMs))]);
  return answer;
}

/** What a server saw of the requests a case made. */
interface Seen {
  method: string;
  url: string;
  contentLength?: string;
  bytes: number;
}

/** A request sink: logs each request and the bytes of its body, answers CORS preflights and 200. */
function sink(seen: Seen[]) {
  return async (request: IncomingMessage, response: ServerResponse) => {
    let bytes = 0;
    for await (const chunk of request) bytes += (chunk as Buffer).byteLength;
    seen.push({ method: request.method!, url: request.url!, contentLength: request.headers['content-length'], bytes });
    response.writeHead(200, {
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'PUT, POST',
      'access-control-allow-headers': '*',
      'content-type': 'text/plain',
    });
    response.end('ok');
  };
}

async function listen(server: ReturnType<typeof createServer>): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function main() {
  const storage = await startLocalS3();
  const handler = createUploadHandler({ ...storage.handlerSettings, onError: (error) => console.error(error) });
  const keys: string[] = [];
  const pageSeen: Seen[] = [];
  const crossSeen: Seen[] = [];
  const pageSink = sink(pageSeen);
  const server = createServer(async (request: IncomingMessage, response: ServerResponse) => {
    if (request.url === '/sw.js') return void response.writeHead(200, { 'content-type': 'text/javascript' }).end(SERVICE_WORKER);
    if (request.url === '/api/s3-upload' && request.method === 'POST') {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const answer = await handler(new Request('http://127.0.0.1/api/s3-upload', { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.concat(chunks) }));
      const text = await answer.text();
      keys.push(JSON.parse(text).key);
      return void response.writeHead(answer.status, { 'content-type': 'application/json' }).end(text);
    }
    if (request.url?.startsWith('/sink')) return pageSink(request, response);
    response.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
  });
  const origin = await listen(server);
  const crossServer = createServer(sink(crossSeen));
  const crossOrigin = await listen(crossServer);
  const cases: Target[] = [
    { name: 'same-origin-put', kind: 'fixed', method: 'PUT', url: `${origin}/sink/put`, headers: { 'content-type': 'application/octet-stream' } },
    { name: 'cross-origin-simple-post', kind: 'fixed', method: 'POST', url: `${crossOrigin}/sink/post`, headers: { 'content-type': 'text/plain' } },
    { name: 'cross-origin-put', kind: 'fixed', method: 'PUT', url: `${crossOrigin}/sink/put`, headers: { 'content-type': 'application/octet-stream' } },
    { name: 'presigned-put-s3rver', kind: 'presigned', method: 'PUT', url: '', headers: {} },
  ];

  const profile = await mkdtemp(join(tmpdir(), 'upbeam-probe-bgf-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM_PATH, headless: !headed, args: [...CHROMIUM_ARGS] });
  const admin = storage.createClient();
  try {
    const results = [];
    for (const target of cases) {
      const page = await context.newPage();
      await page.goto(origin);
      const answer = await page.evaluate(inPage, { bodyBytes: BODY_BYTES, timeoutMs: CASE_TIMEOUT_MS, target });
      await page.close();
      results.push({ case: target.name, ...answer });
    }
    const stored = await Promise.all(
      keys.map((Key) =>
        admin.send(new GetObjectCommand({ Bucket: storage.bucket, Key })).then(
          async (object) => ({ key: Key, bytes: (await object.Body!.transformToByteArray()).byteLength }),
          (error: Error) => ({ key: Key, error: error.name }),
        ),
      ),
    );
    const version = context.browser()?.version() ?? 'unknown';
    const probePage = await context.newPage();
    const userAgent = await probePage.evaluate(() => navigator.userAgent);
    console.log(JSON.stringify({ chromium: version, headless: !headed, userAgent, bodyBytes: BODY_BYTES, results, pageServerSaw: pageSeen, crossOriginServerSaw: crossSeen, stored }, null, 2));
  } finally {
    admin.destroy();
    await context.close();
    await rm(profile, { recursive: true, force: true });
    server.close();
    crossServer.close();
    await storage.close();
  }
}

await main();
