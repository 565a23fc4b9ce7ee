import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FaultKind, FaultProxy } from '@upbeam/fault-proxy';
import type { BrowserContext, Page } from 'playwright-core';
import { chooseStrategy, failedForPage, falls, progressByFile, recordProgressPerFile, sha256, waitForUpload } from './fault-upload';
import { openChromiumPage } from '@upbeam/test-browser';
import { SELECTORS } from './selectors';

/**
 * The fault run: many uploads of both strategies and mixed sizes from the example page in chromium,
 * through a proxy that injects faults on a share of storage requests; every upload must end stored
 * byte-identical. It reports one line of counts: uploads, faults by kind, retries, failures, orphans.
 */

const KiB = 1024;
const MiB = 1024 * KiB;
type Strategy = 'presigned' | 'temporary-token';

/** Sizes cycled through, in bytes: single PUTs, single SDK PutObjects (< 5 MiB), 2- and 3-part uploads. */
export const FAULT_RUN_SIZES = [3 * KiB, 17 * KiB, 96 * KiB, 400 * KiB, 1.2 * MiB, 2.5 * MiB, 4.9 * MiB, 5.5 * MiB, 8 * MiB, 12 * MiB].map(
  Math.round,
);

/** Where the run uploads to, and how to read back and clean up. */
export interface FaultRunTarget {
  /** Name in the report line, e.g. `s3rver`. */
  name: string;
  context: BrowserContext;
  /** Origin of the example page, whose handler prepares uploads through `proxy`. */
  origin: string;
  proxy: FaultProxy;
  /** Prefix of the object URLs the page shows: `{proxy}/{bucket}/`. */
  urlPrefix: string;
  /** Reads a stored object back (with the storage's own credentials, not through the proxy). */
  read(key: string): Promise<Uint8Array>;
  /** Deletes a checked object (radosgw keeps objects in RAM). */
  remove(key: string): Promise<void>;
  /** Multipart uploads left incomplete, as storage lists them (ListMultipartUploads), when it can. */
  listIncomplete?(): Promise<number>;
}

/** Options of {@link runFaultRun}. */
export interface FaultRunOptions {
  /** Uploads in all, alternating presigned and temporary-token. @default 50 */
  uploads?: number;
  /** Sizes cycled through, in bytes. @default FAULT_RUN_SIZES */
  sizes?: number[];
  /** Uploads at once per strategy (one page each). @default 3 */
  concurrency?: number;
  /** Bound of the whole run, in milliseconds. @default 240000 */
  timeoutMs?: number;
}

/** What the run saw. */
export interface FaultRunReport {
  uploads: number;
  bytes: number;
  faults: Partial<Record<FaultKind, number>>;
  faultCount: number;
  /** Storage requests that repeated an earlier one (the proxy's count). */
  retries: number;
  /** Uploads that did not end stored byte-identical with progress that fell only on failed requests, and why. */
  failures: string[];
  /** Multipart uploads created and never completed or aborted (the proxy's ledger). */
  orphans: number;
  /** CreateMultipartUpload answers storage gave and the proxy cut: their upload ids never reached the page. */
  lostCreates: number;
  /** Incomplete multipart uploads storage lists, when it can. */
  listedIncomplete: number | undefined;
  seconds: number;
  /** One line with the counts. */
  line: string;
}

interface PlannedUpload {
  name: string;
  strategy: Strategy;
  bytes: Buffer;
}

/** Runs the uploads through `target.proxy` (its rate and seed set by the caller) and checks each one. */
export async function runFaultRun(target: FaultRunTarget, options: FaultRunOptions = {}): Promise<FaultRunReport> {
  const count = options.uploads ?? 50;
  const sizes = options.sizes ?? FAULT_RUN_SIZES;
  const concurrency = options.concurrency ?? 3;
  const deadline = Date.now() + (options.timeoutMs ?? 240_000);
  const started = performance.now();
  const dir = await mkdtemp(join(tmpdir(), `upbeam-fault-run-${target.name}-`));
  const pages: Page[] = [];
  try {
    const planned: PlannedUpload[] = [];
    for (let i = 0; i < count; i++) {
      const strategy: Strategy = i % 2 === 0 ? 'presigned' : 'temporary-token';
      const size = sizes[Math.floor(i / 2) % sizes.length]!;
      const name = `run-${String(i).padStart(2, '0')}-${strategy}-${size}.bin`;
      const bytes = randomBytes(size);
      await writeFile(join(dir, name), bytes);
      planned.push({ name, strategy, bytes });
    }

    const outcomes = new Map<string, { status: string; url: string | undefined; error?: string | undefined }>();
    const progress: Record<string, number[]> = {};
    await Promise.all(
      (['presigned', 'temporary-token'] as const).map(async (strategy) => {
        const page = await openChromiumPage(target.context, target.origin, -1);
        pages.push(page);
        await chooseStrategy(page, strategy);
        await recordProgressPerFile(page);
        const queue = planned.filter((upload) => upload.strategy === strategy);
        let picking = Promise.resolve();
        const worker = async () => {
          for (let next = queue.shift(); next; next = queue.shift()) {
            const upload = next;
            // One file dialog at a time per page.
            picking = picking.then(() => page.setInputFiles(SELECTORS.fileInput, join(dir, upload.name)));
            await picking;
            outcomes.set(upload.name, await waitForUpload(page, upload.name, Math.max(1000, deadline - Date.now())));
          }
        };
        await Promise.all(Array.from({ length: concurrency }, worker));
        Object.assign(progress, await progressByFile(page));
      }),
    );

    // Progress falls back only when a request with bytes in flight fails: never more often than the upload's
    // storage requests failed (a fault, or a refusal).
    const bucketPath = `/${new URL(target.urlPrefix).pathname.split('/')[1]}/`;
    const faultedRequests = (key: string) =>
      target.proxy.requests().filter((r) => failedForPage(r) && decodeURIComponent(r.path) === `${bucketPath}${key}`).length;
    const failures: string[] = [];
    for (const upload of planned) {
      const outcome = outcomes.get(upload.name);
      const seen = progress[upload.name] ?? [];
      if (outcome?.status !== 'done' || !outcome.url?.startsWith(target.urlPrefix)) {
        failures.push(`${upload.name}: ${outcome?.status ?? 'never ended'}${outcome?.error ? ` (${outcome.error})` : ''}`);
        continue;
      }
      const key = decodeURIComponent(outcome.url.slice(target.urlPrefix.length));
      const stored = await target.read(key);
      if (sha256(stored) !== sha256(upload.bytes)) failures.push(`${upload.name}: stored ${stored.byteLength} bytes differ`);
      else if (falls(seen) > faultedRequests(key) || seen.at(-1) !== 100) failures.push(`${upload.name}: progress ${seen.join(' ')}`);
      await target.remove(key);
    }

    const { proxy } = target;
    const injected = proxy.injected();
    const faults = Object.fromEntries(Object.entries(injected).filter(([, n]) => n > 0)) as Partial<Record<FaultKind, number>>;
    const faultCount = Object.values(injected).reduce((a, b) => a + b, 0);
    const lostCreates = proxy
      .requests()
      .filter((r) => r.operation === 'CreateMultipartUpload' && r.fault === 'truncate' && (r.storageStatus ?? 0) < 300).length;
    const orphans = proxy.multipart().orphans.length;
    const listedIncomplete = await target.listIncomplete?.();
    const bytes = planned.reduce((sum, upload) => sum + upload.bytes.byteLength, 0);
    const storageRequests = proxy.requests().filter((r) => r.operation !== 'Preflight').length;
    const seconds = (performance.now() - started) / 1000;
    const kinds = Object.entries(faults)
      .map(([kind, n]) => `${kind} ${n}`)
      .join(', ');
    const line =
      `fault run (${target.name}): uploads ${count} (${count - Math.floor(count / 2)} presigned, ${Math.floor(count / 2)} temporary-token, ` +
      `${(bytes / MiB).toFixed(1)} MiB), storage requests ${storageRequests}, faults ${faultCount} (${kinds}), retries ${proxy.retries()}, ` +
      `failures ${failures.length}, orphans ${orphans}` +
      `${listedIncomplete === undefined ? '' : ` (ListMultipartUploads: ${listedIncomplete})`}` +
      ` (CreateMultipartUpload answers lost to a truncation: ${lostCreates}), ${seconds.toFixed(1)} s`;
    return { uploads: count, bytes, faults, faultCount, retries: proxy.retries(), failures, orphans, lostCreates, listedIncomplete, seconds, line };
  } finally {
    await Promise.all(pages.map((page) => page.close().catch(() => {})));
    await rm(dir, { recursive: true, force: true });
  }
}
