/**
 * Benchmark (opt-in, `bench:prepare-batch`, issue 47): would batching preparations (one request signing many
 * files) beat one request a file, with the app server 20 ms away? Chromium uploads small files from one page at
 * concurrency 3 (`batch-page.ts`) to `@upbeam/local-s3` (its own process, objects in /dev/shm); every
 * request to the app server (page and endpoint) passes a delaying proxy on 127.0.0.1 that holds it
 * `PREPARE_BATCH_DELAY_MS` (default 20) before forwarding it: a round trip of that much more. The route has a
 * completion hook, so every file is prepared, PUT and reported complete. The prototype's server side is
 * `/api/upbeam-batch` here: `{ files: [body, ...] }` answered `{ answers: [...] }`, each file prepared by the same
 * handler as a request of its own (its limits, keys and receipt). Files/s per client, rounds paired (the clients in
 * a new order each round). `PREPARE_BATCH_COUNT` (default 5000), `PREPARE_BATCH_ROUNDS` (default 3).
 * Writes `results/prepare-batch.json` and RESULTS.md. Build first: `pnpm --filter @upbeam/upload-client build`
 * and `pnpm --filter @upbeam/upload-server build`.
 */
import '../lib/loopback-guard';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { Agent, createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { extname, join, normalize } from 'node:path';
import { getRequestListener } from '@hono/node-server';
import { createUploadHandler } from '@upbeam/upload-server';
import { launchCdpBrowser, type CdpPage } from '../lib/cdp-browser';
import { startChild } from '../lib/child';
import { describeMachine } from '../lib/machine';
import { BENCH_DIR, TMP_DIR } from '../lib/paths';
import { saveResult, type ResultMeta } from '../lib/results';
import { median } from '../lib/stats';
import { writeReport } from '../report';
import { buildPage } from '../upload/page-server';
import type { BatchClient, BatchRunResult } from './batch-page';

const PAGE_DIR = join(TMP_DIR, 'prepare-batch');
const DELAY_MS = Number(process.env.PREPARE_BATCH_DELAY_MS ?? 20);
const COUNT = Number(process.env.PREPARE_BATCH_COUNT ?? 5000);
const ROUNDS = Number(process.env.PREPARE_BATCH_ROUNDS ?? 3);
const FILE_BYTES = 4096;
const TIMEOUT_MS = 600_000;
const CLIENTS: BatchClient[] = ['tracker', 'each', 'batch'];

export interface PrepareBatchSample extends BatchRunResult {
  client: BatchClient;
  round: number;
  /** Requests the app server answered during the run (preparations, batches, completion reports). */
  requests: number;
  load: number;
}

export interface PrepareBatchResult extends ResultMeta {
  command: string;
  settings: string;
  delayMs: number;
  count: number;
  samples: PrepareBatchSample[];
  /** Per round, `batch` files/s over `each` files/s, and over `tracker` files/s: their medians. */
  batchOverEach: number;
  batchOverTracker: number;
}

const listen = (server: Server) => new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));

async function pageReady(page: CdpPage): Promise<void> {
  for (let waited = 0; !(await page.evaluate<boolean>(`typeof window.benchPrepareBatch === 'function'`).catch(() => false)); waited += 50) {
    if (waited > 15_000) throw new Error('the prepare-batch page did not load');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function runPrepareBatchBench(): Promise<PrepareBatchResult> {
  const started = performance.now();
  await buildPage({ entry: join(BENCH_DIR, 'src', 'prepare', 'batch-page.ts'), outDir: PAGE_DIR });
  // The proxy first: its origin is the page's, which storage's CORS allows.
  let appPort = 0;
  const agent = new Agent({ keepAlive: true });
  const proxy = createServer((incoming, outgoing) => {
    setTimeout(() => {
      const forwarded = httpRequest(
        { host: '127.0.0.1', port: appPort, method: incoming.method, path: incoming.url, headers: incoming.headers, agent },
        (answer) => {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
        },
      );
      forwarded.on('error', () => outgoing.writeHead(502).end());
      incoming.pipe(forwarded);
    }, DELAY_MS);
  });
  const origin = `http://127.0.0.1:${await listen(proxy)}`;
  const directory = await mkdtemp(join('/dev/shm', 'upbeam-bench-batch-'));
  const storage = await startChild(join(BENCH_DIR, 'src', 'upload', 's3rver-process.ts'), [directory, origin]);
  const { endpoint, bucket, region, accessKeyId, secretAccessKey } = storage.ready as Record<string, string>;
  const handler = createUploadHandler({
    accessKeyId: accessKeyId!,
    secretAccessKey: secretAccessKey!,
    bucket: bucket!,
    region: region!,
    endpoint: endpoint!,
    forcePathStyle: true,
    checksum: false,
    // A completion hook: every answer holds a receipt, and every file is reported complete.
    onUploadComplete: async () => undefined,
  });
  let requests = 0;
  const prepare = getRequestListener(async (request) => {
    requests += 1;
    const url = new URL(request.url);
    if (url.pathname === '/api/upbeam') return handler(request);
    // The prototype's batch endpoint: each file prepared by the handler as a request of its own.
    const { files } = (await request.json()) as { files: unknown[] };
    const headers = new Headers(request.headers);
    headers.delete('content-length');
    const answers = await Promise.all(
      files.map(async (body) => {
        const one = await handler(new Request(new URL('/api/upbeam', url), { method: 'POST', headers, body: JSON.stringify(body) }));
        if (!one.ok) throw new Error(`a batched preparation answered ${one.status}: ${await one.text()}`);
        return one.json();
      }),
    );
    return Response.json({ answers });
  });
  const app = createServer((incoming, outgoing) => {
    if (incoming.url?.startsWith('/api/')) return void prepare(incoming, outgoing);
    const path = normalize(incoming.url === '/' ? '/index.html' : incoming.url!.split('?')[0]!);
    readFile(join(PAGE_DIR, path)).then(
      (body) => outgoing.writeHead(200, { 'Content-Type': extname(path) === '.js' ? 'text/javascript' : 'text/html' }).end(body),
      () => outgoing.writeHead(404).end(),
    );
  });
  appPort = await listen(app);
  const browser = await launchCdpBrowser();
  const samples: PrepareBatchSample[] = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const client of CLIENTS.map((_, index) => CLIENTS[(index + round) % CLIENTS.length]!)) {
        const page = await browser.newPage(`${origin}/`);
        try {
          await pageReady(page);
          // A warm-up: the first connections and the handler's first signing.
          await page.evaluate(`window.benchPrepareBatch(${JSON.stringify({ client, count: 60, bytes: FILE_BYTES, timeoutMs: 60_000 })})`);
          const load = Math.round(os.loadavg()[0]! * 10) / 10;
          requests = 0;
          const run = await page.evaluate<BatchRunResult>(`window.benchPrepareBatch(${JSON.stringify({ client, count: COUNT, bytes: FILE_BYTES, timeoutMs: TIMEOUT_MS })})`);
          samples.push({ ...run, client, round, requests, load });
          console.log(`[prepare-batch] round ${round + 1}/${ROUNDS} ${client}: ${run.done} done, ${run.failed} failed, ${run.filesPerSecond.toFixed(1)} files/s, ${requests} requests${run.firstError ? `, ${run.firstError}` : ''}`);
        } finally {
          await page.close().catch(() => {});
        }
      }
    }
  } finally {
    await browser.close().catch(() => {});
    proxy.closeAllConnections();
    app.closeAllConnections();
    proxy.close();
    app.close();
    agent.destroy();
    await storage.stop();
    await rm(directory, { recursive: true, force: true });
  }
  const perRound = (over: BatchClient) =>
    median(
      Array.from({ length: ROUNDS }, (_, round) => {
        const of = (client: BatchClient) => samples.find((sample) => sample.round === round && sample.client === client)!.filesPerSecond;
        return of('batch') / of(over);
      }),
    );
  const result: PrepareBatchResult = {
    machine: describeMachine(['@upbeam/upload-client', '@upbeam/upload-server'], { chromium: browser.version }),
    seconds: (performance.now() - started) / 1000,
    command: `flock /tmp/h45/bench.lock env PREPARE_BATCH_COUNT=${COUNT} PREPARE_BATCH_ROUNDS=${ROUNDS} pnpm --filter @upbeam/bench bench:prepare-batch`,
    settings:
      `headless Debian chromium over a bare DevTools pipe; ${COUNT} files of ${FILE_BYTES} bytes a run, concurrency 3; every request to the app ` +
      `server held ${DELAY_MS} ms by a proxy on 127.0.0.1; @upbeam/local-s3 in its own process (objects in /dev/shm); a completion hook ` +
      `(every file reported complete); batches of 50; ${ROUNDS} rounds, the clients in a new order each round`,
    delayMs: DELAY_MS,
    count: COUNT,
    samples,
    batchOverEach: perRound('each'),
    batchOverTracker: perRound('tracker'),
  };
  await saveResult('prepare-batch', result);
  return result;
}

await runPrepareBatchBench();
console.log(`[prepare-batch] wrote ${await writeReport()}`);
