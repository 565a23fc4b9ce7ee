/**
 * The lead-in (issue 47 item 2): from the moment a file is picked (the input's change event, where the page
 * starts the upload) to the first byte of the upload on storage's socket, for Upbeam's single PUT and multipart
 * (`useS3Upload`'s add path) and for the bare floors in the same rounds: a bare XHR PUT (one preparation, the PUT)
 * and a bare multipart (one `create` that presigns the parts, then UploadPart). At 0 and at 40 ms of delay to the
 * app server: the page server answers every request (the page's scripts, the lazy chunks, the endpoints) that
 * many ms late, as an app server a round trip away would; storage stays on loopback.
 *
 * Storage's side: a thin TCP proxy in front of the embedded storage (`storage-proxy.ts`) notes when each of the
 * page's requests reaches the socket; the page notes its pick. Both are ms since the epoch of one machine's
 * clock, taken by two processes (chromium's renderer and this one); the paired difference (Upbeam minus its
 * floor, the same round and delay) cancels whatever offset the two clocks have. Two figures per upload: the
 * first byte of any of the page's requests to storage (the CORS preflight, OPTIONS, for every client here), and
 * the first byte of the upload's own PUT (the single PUT, or the first UploadPart).
 *
 * The delay is in front of the handler (the endpoints: `/api/*`); `40+files` delays the page's files too (the
 * scripts and the lazy chunks, as from an app server that serves them itself, over HTTP/1.1's six connections).
 *
 * A fresh page per upload (the lazy chunks not yet loaded, as at a page's first upload). The modes take turns in
 * a new order every round; `LEAD_IN_ROUNDS` (default 21) rounds of every mode at every delay;
 * `LEAD_IN_DELAYS=0,40,40+files` the delays. With `BENCH_BEFORE_ROOT=<another checkout, its browser packages
 * built>` (`lib/before-build.ts`) Upbeam's modes also run on a page built against that checkout (`*-before`), in
 * the same rounds. `LEAD_IN_PROFILE=<mode ids>` profiles the page's main thread from the pick to the first PUT
 * (uncounted uploads after the rounds). Run under `flock /tmp/h45/bench.lock`.
 */
import '../lib/loopback-guard';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import os from 'node:os';
import { join, normalize } from 'node:path';
import { getRequestListener } from '@hono/node-server';
import { DeleteObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { createUploadHandler } from '@upbeam/upload-server';
import { beforeBuildsOf, beforeRoot, beforeRunOf, beforeVitePlugin, type BeforeRun } from '../lib/before-build';
import { launchCdpBrowser, type CdpBrowser, type CdpPage } from '../lib/cdp-browser';
import { startChild, type Child } from '../lib/child';
import { envList } from '../lib/env-list';
import { describeMachine, packageVersion } from '../lib/machine';
import { BENCH_DIR, TMP_DIR } from '../lib/paths';
import { waitForQuietMachine } from '../lib/quiet-machine';
import { saveResult, type BenchName, type ResultMeta } from '../lib/results';
import { roundOrder } from '../lib/round-order';
import { writeReport } from '../report';
import { floorMultipartApi } from '../upload/floor-multipart-api';
import { buildPageWithVite } from '../upload/page-build-vite';
import { startProfile, stopProfile, type ProfileSummary } from '../upload/page-profile';
import { makeFile } from '../upload/run';
import type { Target } from '../upload/targets';
import type { LeadInMode, LeadInResult } from './page';
import { startStorageProxy, type StorageProxy } from './storage-proxy';

const MiB = 1024 * 1024;
const PAGE_DIR = join(TMP_DIR, 'lead-in-page');

/** The file of each shape: 1 MiB for one PUT; 16 MiB for multipart (Upbeam with `multipartThreshold` 8 MiB). */
const PUT_BYTES = 1 * MiB;
const MULTIPART_BYTES = 16 * MiB;
const MULTIPART_THRESHOLD = 8 * MiB;
/** The bare multipart's parts: the engine's defaults (5 MiB, 4 at once). */
const FLOOR_PARTS = { partSize: 5 * MiB, queueSize: 4 };

export interface LeadInModeSpec {
  /** `floor-put`, `upbeam-put`, `floor-multipart`, `upbeam-multipart`, and `upbeam-*-before` (the other build). */
  id: string;
  shape: 'put' | 'multipart';
  mode: LeadInMode;
  /** On the page built against `BENCH_BEFORE_ROOT` (served at `/before/`). */
  before?: boolean;
}

export const LEAD_IN_MODES: LeadInModeSpec[] = [
  { id: 'floor-put', shape: 'put', mode: { client: 'floor-put' } },
  { id: 'upbeam-put', shape: 'put', mode: { client: 'upbeam' } },
  { id: 'floor-multipart', shape: 'multipart', mode: { client: 'floor-multipart', ...FLOOR_PARTS } },
  { id: 'upbeam-multipart', shape: 'multipart', mode: { client: 'upbeam', multipartThreshold: MULTIPART_THRESHOLD } },
];

export interface LeadInSample {
  round: number;
  /** `0`, `40` (the endpoints), `40+files` (the page's files too). */
  delay: string;
  mode: string;
  /** ms from the pick to the first byte of the page's first request on storage's socket (the CORS preflight). */
  firstByteMs?: number;
  /** ms from the pick to the first byte of the upload's first PUT (the single PUT, or UploadPart 1) on the socket. */
  firstPutMs?: number;
  /** ms from the pick to the resolved upload. */
  totalMs?: number;
  /** The page's requests before the first PUT, Resource Timing (path, start, end: ms from the pick). */
  requests?: LeadInResult['requests'];
  load: number;
  error?: string;
}

export interface LeadInResultFile extends ResultMeta {
  command: string;
  settings: string;
  rounds: number;
  delays: string[];
  /** With `BENCH_BEFORE_ROOT`: the other checkout, its commit, and the command that ran. */
  before?: BeforeRun;
  /** With `LEAD_IN_PROFILE`: the profiled uploads. */
  profiles?: LeadInProfile[];
  samples: LeadInSample[];
}

/** One upload profiled from the pick to its first PUT on storage's socket. */
export interface LeadInProfile {
  mode: string;
  delay: string;
  firstPutMs?: number;
  profile: ProfileSummary;
}

/**
 * Longest wait for a quiet machine before an upload (ms): the machine is shared, and the paired rounds (Upbeam and
 * its floor, the same round) are what the figures are judged by.
 */
const QUIET_TIMEOUT_MS = 500;

/** Profiled uploads per mode and delay (`LEAD_IN_PROFILE`). */
const PROFILED_UPLOADS = 3;

/** The app server: the built page and the two endpoints, each request answered `delay(path)` ms late. */
function startAppServer(delay: (path: string) => number, handlers: { upbeam: () => ReturnType<typeof getRequestListener>; floor: () => Target }): Promise<Server> {
  const answer = (request: IncomingMessage, response: ServerResponse) => {
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    if (path === '/api/upbeam') return void handlers.upbeam()(request, response);
    if (path.startsWith('/api/floor-multipart/')) {
      const target = handlers.floor();
      return void getRequestListener(async (webRequest) => (await floorMultipartApi(target, path, webRequest)) ?? new Response('not found', { status: 404 }))(
        request,
        response,
      );
    }
    const file = normalize(path.endsWith('/') ? `${path}index.html` : path);
    readFile(join(PAGE_DIR, file)).then(
      (bytes) => response.writeHead(200, { 'content-type': file.endsWith('.html') ? 'text/html' : 'text/javascript', 'cache-control': 'no-store' }).end(bytes),
      () => response.writeHead(404).end(),
    );
  };
  const server = createServer((request, response) => {
    const ms = delay(new URL(request.url ?? '/', 'http://127.0.0.1').pathname);
    if (ms > 0) setTimeout(() => answer(request, response), ms);
    else answer(request, response);
  });
  server.keepAliveTimeout = 60_000;
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function waitForPage(page: CdpPage): Promise<void> {
  for (let waited = 0; waited < 15_000; waited += 50) {
    if (await page.evaluate<boolean>(`typeof window.leadInArm === 'function'`).catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the lead-in page did not load');
}

const round1 = (value: number) => Math.round(value * 10) / 10;

export async function runLeadInBench(): Promise<LeadInResultFile> {
  const started = performance.now();
  const rounds = Number(process.env.LEAD_IN_ROUNDS) || 21;
  const delays = envList('LEAD_IN_DELAYS') ?? ['0', '40', '40+files'];
  const saveAs = (process.env.LEAD_IN_SAVE_AS ?? 'lead-in') as BenchName;
  const otherRoot = beforeRoot();
  const modes = otherRoot
    ? LEAD_IN_MODES.flatMap((spec) => (spec.mode.client === 'upbeam' ? [spec, { ...spec, id: `${spec.id}-before`, before: true }] : [spec]))
    : LEAD_IN_MODES;
  const fileDir = await mkdtemp(join('/dev/shm', 'upbeam-bench-lead-in-'));
  const storageDir = await mkdtemp(join('/dev/shm', 'upbeam-bench-lead-in-s3-'));
  let delay = '0';
  let app: Server | undefined;
  let storage: Child | undefined;
  let proxy: StorageProxy | undefined;
  let browser: CdpBrowser | undefined;
  let admin: S3Client | undefined;
  const samples: LeadInSample[] = [];
  try {
    const entry = join(BENCH_DIR, 'src', 'lead-in', 'page.tsx');
    await buildPageWithVite({ entry, outDir: PAGE_DIR });
    if (otherRoot) await buildPageWithVite({ entry, outDir: join(PAGE_DIR, 'before'), base: '/before/', plugins: [beforeVitePlugin(beforeBuildsOf(otherRoot))] });
    let upbeam: ReturnType<typeof getRequestListener> | undefined;
    let floorTarget: Target | undefined;
    // `40`: the endpoints only; `40+files`: every request.
    app = await startAppServer((path) => (delay.endsWith('+files') || path.startsWith('/api/') ? Number.parseInt(delay, 10) : 0), { upbeam: () => upbeam!, floor: () => floorTarget! });
    const address = app.address();
    const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    storage = await startChild(join(BENCH_DIR, 'src', 'upload', 's3rver-process.ts'), [storageDir, origin]);
    const { endpoint: direct, bucket, region, accessKeyId, secretAccessKey } = storage.ready as Record<string, string>;
    proxy = await startStorageProxy(direct!);
    // Every URL the page gets names the proxy (the handler's and the floor's S3 calls go through it too: the
    // proxy tells them apart, they carry no Origin).
    const settings = { accessKeyId: accessKeyId!, secretAccessKey: secretAccessKey!, bucket: bucket!, region: region!, endpoint: proxy.endpoint, forcePathStyle: true };
    const handler = createUploadHandler(settings);
    upbeam = getRequestListener((request) => handler(request));
    admin = new S3Client({
      region: settings.region,
      endpoint: settings.endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    floorTarget = { admin, bucket: settings.bucket, endpoint: settings.endpoint } as Target;
    browser = await launchCdpBrowser();
    const files = { put: join(fileDir, 'put.bin'), multipart: join(fileDir, 'multipart.bin') };
    await makeFile(files.put, PUT_BYTES);
    await makeFile(files.multipart, MULTIPART_BYTES);

    const one = async (spec: LeadInModeSpec, round: number, profileName?: string): Promise<LeadInSample & { profile?: ProfileSummary }> => {
      const load = round1(os.loadavg()[0]!);
      const base = { round, delay, mode: spec.id, load };
      const page = await browser!.newPage(`${origin}${spec.before ? '/before/' : '/'}`);
      try {
        await waitForPage(page);
        await page.evaluate(`window.leadInArm(${JSON.stringify(spec.mode)})`);
        const since = performance.timeOrigin + performance.now();
        if (profileName) await startProfile(page);
        await page.setInputFile('#file', files[spec.shape]);
        // Profiled: the profile ends as the upload's first PUT reaches storage's socket (a ms or two after).
        let profile: ProfileSummary | undefined;
        if (profileName) {
          for (let waited = 0; waited < 5_000 && !proxy!.requestsSince(since).some((request) => request.fromPage && request.method === 'PUT'); waited++) {
            await new Promise((resolve) => setTimeout(resolve, 1));
          }
          profile = await stopProfile(page, profileName);
        }
        // The change event fires as the file is set; its upload's promise is awaited here.
        const result = await page.evaluate<LeadInResult | null>('window.leadInResult ?? null');
        if (!result) throw new Error('the change event did not start an upload');
        const requests = proxy!.requestsSince(result.pickedAt).filter((request) => request.fromPage);
        if (result.url) await admin!.send(new DeleteObjectCommand({ Bucket: settings.bucket, Key: decodeURIComponent(new URL(result.url).pathname.slice(settings.bucket.length + 2)) })).catch(() => {});
        if (result.error) return { ...base, error: result.error.slice(0, 200) };
        const firstPut = requests.find((request) => request.method === 'PUT');
        return {
          ...base,
          ...(profile && { profile }),
          ...(requests[0] && { firstByteMs: round1(requests[0].at - result.pickedAt) }),
          ...(firstPut && { firstPutMs: round1(firstPut.at - result.pickedAt) }),
          totalMs: round1(result.resolvedAt! - result.pickedAt),
          requests: result.requests
            .filter((request) => !firstPut || request.start <= firstPut.at - result.pickedAt)
            .map((request) => ({ path: request.path, start: round1(request.start), end: round1(request.end) })),
        };
      } catch (error) {
        return { ...base, error: error instanceof Error ? error.message.slice(0, 200) : String(error) };
      } finally {
        await page.close();
      }
    };

    // Uncounted: one upload of every mode at each delay (storage's first objects, chromium's connections).
    for (const each of delays) {
      delay = each;
      for (const spec of modes) {
        const sample = await one(spec, -1);
        console.log(`[lead-in] warm-up ${delay} ms ${spec.id}: ${sample.error ?? `${sample.firstPutMs} ms`}`);
      }
    }
    for (let round = 0; round < rounds; round++) {
      for (const [index, each] of delays.entries()) {
        delay = each;
        for (const spec of roundOrder(modes, round * 10 + index)) {
          await waitForQuietMachine({ timeoutMs: QUIET_TIMEOUT_MS });
          const sample = await one(spec, round);
          samples.push(sample);
          console.log(
            `[lead-in] round ${round + 1}/${rounds} ${delay} ms ${spec.id}: ${sample.error ? `FAILED ${sample.error}` : `first byte ${sample.firstByteMs} ms, PUT ${sample.firstPutMs} ms, total ${sample.totalMs} ms`}`,
          );
        }
      }
    }
    // LEAD_IN_PROFILE=<mode ids>: uncounted uploads of those modes at each delay, the page's main thread profiled
    // from just before the pick to the first PUT on storage's socket (page-profile.ts).
    const profiles: LeadInProfile[] = [];
    for (const id of envList('LEAD_IN_PROFILE') ?? []) {
      const spec = modes.find((mode) => mode.id === id);
      if (!spec) continue;
      for (const each of delays) {
        delay = each;
        for (let index = 0; index < PROFILED_UPLOADS; index++) {
          const sample = await one(spec, -1, `lead-in-${id}-${each}-${index}`);
          if (sample.profile) profiles.push({ mode: id, delay: each, firstPutMs: sample.firstPutMs, profile: sample.profile });
        }
      }
    }
    const loads = samples.map((sample) => sample.load);
    const result: LeadInResultFile = {
      machine: describeMachine([], { chromium: browser.version, '@20minutes/s3rver': packageVersion('@20minutes/s3rver', join(BENCH_DIR, '..', 'packages', 'local-s3')) }),
      seconds: (performance.now() - started) / 1000,
      command: otherRoot
        ? `pnpm run build && flock /tmp/h45/bench.lock env ${beforeRunOf(otherRoot, 'bench:lead-in', 'LEAD_IN_').command}`
        : `pnpm run build && flock /tmp/h45/bench.lock pnpm --filter @upbeam/bench bench:lead-in`,
      settings:
        'headless Debian chromium over a bare DevTools pipe, a fresh page per upload (the lazy chunks not loaded yet), built with Vite; ' +
        `files in /dev/shm set on the input (its change event starts the upload): ${PUT_BYTES / MiB} MiB for one PUT, ${MULTIPART_BYTES / MiB} MiB for multipart ` +
        `(Upbeam: useS3Upload's uploadToS3 with multipartThreshold ${MULTIPART_THRESHOLD / MiB} MiB; the bare multipart: ${FLOOR_PARTS.partSize / MiB} MiB parts, ${FLOOR_PARTS.queueSize} at once, every part presigned by its create); ` +
        'presigned strategy, @upbeam/local-s3 in a process of its own behind a TCP proxy that notes when each request of the page reaches the socket; ' +
        'the delay: the app server answers each endpoint request (`40`), or every request with the page\'s scripts and lazy chunks (`40+files`, HTTP/1.1), that many ms late; ' +
        `the modes in a new order every round; load average (1 min) ${Math.min(...loads)} to ${Math.max(...loads)}`,
      rounds,
      delays,
      ...(otherRoot && { before: beforeRunOf(otherRoot, 'bench:lead-in', 'LEAD_IN_') }),
      ...(profiles.length > 0 && { profiles }),
      samples,
    };
    await saveResult(saveAs, result);
    return result;
  } finally {
    await browser?.close().catch(() => {});
    await proxy?.close().catch(() => {});
    admin?.destroy();
    await new Promise<void>((resolve) => (app ? (app.closeAllConnections(), app.close(() => resolve())) : resolve()));
    await storage?.stop().catch(() => {});
    await rm(fileDir, { recursive: true, force: true });
    await rm(storageDir, { recursive: true, force: true });
  }
}

await runLeadInBench();
console.log(`[lead-in] wrote ${await writeReport()}`);
