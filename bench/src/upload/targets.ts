/**
 * The storage servers of the upload benchmark, each with the two preparation endpoints the page calls:
 * Upbeam's handler (both strategies) and next-s3-upload's route (its presigned strategy; its
 * temporary-token client cannot be pointed at an S3-compatible endpoint), and an admin client to check
 * and delete what was stored.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import type { RequestListener } from 'node:http';
import { join } from 'node:path';
import { DeleteObjectCommand, HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { createBucket, createUploadRole, radosgwS3Client, startRadosgw, type Radosgw } from '@upbeam/ceph-rgw';
import { createUploadHandler, type UploadHandler } from '@upbeam/upload-server';
import { APIRoute } from 'next-s3-upload';
import { startChild } from '../lib/child';
import { matchingCpuSeconds, treeCpuSeconds } from '../lib/cpu-time';
import { pinToServerCores } from '../lib/cores';
import { BENCH_DIR } from '../lib/paths';
import { renice, STORAGE_NICENESS } from '../lib/priority';
import { pidsMatching } from '../lib/processes';
import { nextPagesRoute } from '../lib/next-pages-route';

export type TargetName = 's3rver' | 'radosgw';

export interface Target {
  name: TargetName;
  /** e.g. `@20minutes/s3rver 5.0.0, objects in /dev/shm` */
  description: string;
  endpoint: string;
  bucket: string;
  /** An S3 client with the storage's own keys (checksums only where required, path style). */
  admin: S3Client;
  upbeam: UploadHandler;
  nextS3Upload: RequestListener;
  /** The stored object's size, or undefined when there is none. */
  storedSize(key: string): Promise<number | undefined>;
  remove(key: string): Promise<void>;
  /**
   * CPU seconds the storage has used so far: s3rver's process, or radosgw's (radosgw, the Ceph monitor and
   * OSD).
   */
  storageCpuSeconds(): number;
  /**
   * Frees now what deleted objects still hold (radosgw's garbage collection, which would otherwise run in the
   * background during a later upload); nothing to do for s3rver, which deletes a file at once.
   */
  collectGarbage(): Promise<void>;
  close(): Promise<void>;
}

function adminOps(admin: S3Client, bucket: string) {
  return {
    storedSize: async (key: string) => {
      try {
        return (await admin.send(new HeadObjectCommand({ Bucket: bucket, Key: key }))).ContentLength;
      } catch {
        return undefined;
      }
    },
    remove: async (key: string) => {
      await admin.send(new DeleteObjectCommand({ Bucket: bucket, Key: key })).catch(() => {});
    },
  };
}

/**
 * The embedded storage (@20minutes/s3rver through `@upbeam/local-s3`) in a process of its own
 * (`s3rver-process.ts`), objects kept under `parent` (RAM by default). Apart from the benchmark's process, where
 * the page server, the preparation handler and the DevTools driver run: their work does not pause storage's,
 * and storage's CPU is its own. The handler reaches its STS stand-in over HTTP, as an app reaches STS.
 */
export async function startS3rverTarget(pageOrigin: string, version: string, parent = '/dev/shm'): Promise<Target> {
  const directory = await mkdtemp(join(parent, 'upbeam-bench-s3-'));
  const child = await startChild(join(BENCH_DIR, 'src', 'upload', 's3rver-process.ts'), [directory, pageOrigin]);
  const { endpoint, bucket, region, accessKeyId, secretAccessKey } = child.ready as Record<string, string>;
  const settings = { accessKeyId: accessKeyId!, secretAccessKey: secretAccessKey!, bucket: bucket!, region: region!, endpoint: endpoint!, forcePathStyle: true };
  // The default CRC32 checksums of a new S3Client would also sign an empty body's checksum into the floor's
  // presigned UploadPart URLs.
  const admin = new S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const pid = child.process.pid!;
  renice([pid]);
  pinToServerCores([pid]);
  return {
    name: 's3rver',
    description: `@20minutes/s3rver ${version} in a process of its own at nice ${STORAGE_NICENESS}, objects in ${parent}`,
    endpoint: settings.endpoint,
    bucket: settings.bucket,
    admin,
    storageCpuSeconds: () => treeCpuSeconds(pid),
    collectGarbage: async () => {},
    // s3rver has no STS: the local stand-in on its port mints key pairs it accepts.
    upbeam: createUploadHandler({ ...settings, stsEndpoint: settings.endpoint }),
    nextS3Upload: nextPagesRoute(APIRoute.configure({ ...settings })),
    ...adminOps(admin, settings.bucket),
    async close() {
      admin.destroy();
      await child.stop();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/** Starts Ceph radosgw (~15 s) now; the target is made from it once the page's origin is known. */
export function startRadosgwProcess(): Promise<Radosgw> {
  return startRadosgw();
}

/** Ceph radosgw: a CORS bucket, an upload role for STS AssumeRole (the temporary-token strategy). */
export async function radosgwTarget(radosgw: Radosgw, pageOrigin: string, version: string): Promise<Target> {
  const bucket = `bench-${Date.now().toString(36)}`;
  await createBucket(radosgw, bucket, { allowedOrigins: [pageOrigin] });
  const roleArn = await createUploadRole(radosgw);
  const admin = radosgwS3Client(radosgw);
  const storagePids = pidsMatching(radosgw.dir);
  renice(storagePids);
  pinToServerCores(storagePids);
  const settings = {
    accessKeyId: radosgw.accessKeyId,
    secretAccessKey: radosgw.secretAccessKey,
    bucket,
    region: radosgw.region,
    endpoint: radosgw.endpoint,
    forcePathStyle: true,
  };
  return {
    name: 'radosgw',
    description: `Ceph radosgw ${version} (memstore OSD, objects in RAM; each object deleted after its run and its RADOS objects freed before the next; radosgw, the monitor and the OSD at nice ${STORAGE_NICENESS})`,
    endpoint: radosgw.endpoint,
    bucket,
    admin,
    storageCpuSeconds: () => matchingCpuSeconds(radosgw.dir),
    collectGarbage: () => radosgw.collectGarbage(),
    upbeam: createUploadHandler({ ...settings, roleArn, stsEndpoint: radosgw.endpoint }),
    nextS3Upload: nextPagesRoute(APIRoute.configure({ ...settings })),
    ...adminOps(admin, bucket),
    async close() {
      admin.destroy();
      await radosgw.close();
    },
  };
}
