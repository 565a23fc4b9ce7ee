/**
 * Opt-in (`pnpm --filter @upbeam/bench bench:huge`): one file larger than S3's 5 GiB PutObject limit,
 * picked on the benchmark page and uploaded by Upbeam's presigned strategy with its default options (so
 * it must go multipart), to s3rver keeping its objects on disk under /tmp. The stored object's size and
 * SHA-256 (read back with GetObject) must equal the source's. The file is sparse: zeros, with 1 MiB of
 * random bytes every 256 MiB and at both ends, so that a part sent twice, dropped or out of order changes
 * the hash. Needs ~11 GiB free in /tmp (s3rver keeps the parts, then writes the whole object on complete);
 * everything is deleted after. Writes results/huge.json; RESULTS.md shows it.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, open, rm, statfs } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { launchCdpBrowser, type CdpBrowser } from '../lib/cdp-browser';
import { describeMachine, packageVersion } from '../lib/machine';
import { BENCH_DIR } from '../lib/paths';
import { saveResult, type ResultMeta } from '../lib/results';
import { buildPage, startPageServer, type PageServer } from '../upload/page-server';
import { describeSample, runInPage, type UploadSample } from '../upload/run';
import { startS3rverTarget, type Target } from '../upload/targets';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

/**
 * 5 GiB + 100 MiB: over S3's PutObject limit, and not a whole number of parts (the last one is short).
 * `HUGE_MIB` sets another size, to try the benchmark out quickly.
 */
export const HUGE_FILE_BYTES = process.env.HUGE_MIB ? Number(process.env.HUGE_MIB) * MiB : 5 * GiB + 100 * MiB;

/** Free space /tmp needs: the sparse source (a few MiB) + the parts + the completed object, and a margin. */
const FREE_BYTES_NEEDED = 2 * HUGE_FILE_BYTES + GiB;

/** Bound of the upload: 5.1 GiB at 10 MB/s (s3rver's multipart floor here is ~70 MB/s). */
const UPLOAD_TIMEOUT_MS = 600_000;

/** Random blocks in the sparse file: where they are and how long. */
const MARK_EVERY = 256 * MiB;
const MARK_BYTES = MiB;

export interface HugeResult extends ResultMeta {
  settings: string;
  bytes: number;
  sha256: string;
  storedSha256?: string;
  sample: UploadSample;
  /** Whether size and hash matched. */
  ok: boolean;
}

async function makeSparseFile(path: string, bytes: number): Promise<void> {
  const handle = await open(path, 'w');
  try {
    await handle.truncate(bytes);
    for (let offset = 0; offset < bytes; offset += MARK_EVERY) {
      await handle.write(randomBytes(MARK_BYTES), 0, MARK_BYTES, offset);
    }
    await handle.write(randomBytes(MARK_BYTES), 0, MARK_BYTES, bytes - MARK_BYTES);
  } finally {
    await handle.close();
  }
}

async function sha256Of(stream: Readable): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(stream, hash);
  return hash.digest('hex');
}

export async function runHugeBench(): Promise<HugeResult> {
  const started = performance.now();
  const free = await statfs('/tmp');
  const freeBytes = free.bavail * free.bsize;
  if (freeBytes < FREE_BYTES_NEEDED) {
    throw new Error(`/tmp has ${(freeBytes / GiB).toFixed(1)} GiB free; the huge upload needs ${(FREE_BYTES_NEEDED / GiB).toFixed(1)} GiB`);
  }
  const directory = await mkdtemp(join('/tmp', 'upbeam-bench-huge-'));
  let server: PageServer | undefined;
  let browser: CdpBrowser | undefined;
  let target: Target | undefined;
  try {
    const filePath = join(directory, 'huge.bin');
    await makeSparseFile(filePath, HUGE_FILE_BYTES);
    const sha256 = await sha256Of(createReadStream(filePath));
    console.log(`[huge] source ${HUGE_FILE_BYTES} bytes, sha256 ${sha256}`);
    await buildPage();
    server = await startPageServer();
    browser = await launchCdpBrowser();
    const version = packageVersion('@20minutes/s3rver', join(BENCH_DIR, '..', 'tools', 'local-s3'));
    target = await startS3rverTarget(server.origin, version, directory);
    server.setTarget(target);
    const storage = target;
    let storedSha256: string | undefined;
    const sample = await runInPage(
      browser,
      server,
      storage,
      { id: 'upbeam-presigned-huge', page: { client: 'upbeam', strategy: 'presigned' } },
      filePath,
      HUGE_FILE_BYTES,
      {
        timeoutMs: UPLOAD_TIMEOUT_MS,
        async verify(key) {
          const object = await storage.admin.send(new GetObjectCommand({ Bucket: storage.bucket, Key: key }));
          storedSha256 = await sha256Of(object.Body as Readable);
          if (storedSha256 !== sha256) throw new Error(`stored sha256 ${storedSha256} differs from the source's ${sha256}`);
        },
      },
    ).catch((error: unknown): UploadSample => ({ error: error instanceof Error ? error.message.split('\n')[0]!.slice(0, 300) : String(error) }));
    console.log(`[huge] ${describeSample(sample)}`);
    const result: HugeResult = {
      machine: describeMachine(['@aws-sdk/client-s3'], { '@20minutes/s3rver': version, chromium: browser.version }),
      seconds: (performance.now() - started) / 1000,
      settings:
        `one ${HUGE_FILE_BYTES} bytes file (${(HUGE_FILE_BYTES / GiB).toFixed(2)} GiB; sparse, with 1 MiB of random bytes every 256 MiB and at the end), ` +
        `Upbeam presigned with default options in headless chromium, to @20minutes/s3rver ${version} keeping objects on disk (/tmp); ` +
        'stored size (HEAD) and SHA-256 of the stored bytes (GetObject) compared with the source',
      bytes: HUGE_FILE_BYTES,
      sha256,
      ...(storedSha256 ? { storedSha256 } : {}),
      sample,
      ok: sample.error === undefined && storedSha256 === sha256,
    };
    await saveResult('huge', result);
    return result;
  } finally {
    await browser?.close().catch(() => {});
    await server?.close().catch(() => {});
    await target?.close().catch(() => {});
    await rm(directory, { recursive: true, force: true });
  }
}
