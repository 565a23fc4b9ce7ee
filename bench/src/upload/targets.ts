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
import { startLocalS3 } from '@upbeam/local-s3';
import { createUploadHandler, type UploadHandler } from '@upbeam/upload-server';
import { APIRoute } from 'next-s3-upload';
import { matchingCpuSeconds, ownCpuSeconds } from '../lib/cpu-time';
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
   * CPU seconds the storage has used so far: s3rver runs in the benchmark's process (with the preparation
   * handler and the page server), radosgw in its own processes (radosgw, the Ceph monitor and OSD).
   */
  storageCpuSeconds(): number;
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

/** The embedded storage (@20minutes/s3rver, in this process), objects kept under `parent` (RAM by default). */
export async function startS3rverTarget(pageOrigin: string, version: string, parent = '/dev/shm'): Promise<Target> {
  const directory = await mkdtemp(join(parent, 'upbeam-bench-s3-'));
  const local = await startLocalS3({ directory, allowedOrigins: [pageOrigin] });
  const settings = local.handlerSettings;
  // Not `local.createClient()`: its default CRC32 checksums would also sign an empty body's checksum into
  // the floor's presigned UploadPart URLs.
  const admin = new S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  return {
    name: 's3rver',
    description: `@20minutes/s3rver ${version} in the benchmark's process, objects in ${parent}`,
    endpoint: local.endpoint,
    bucket: local.bucket,
    admin,
    storageCpuSeconds: ownCpuSeconds,
    // s3rver has no STS: the local stand-in mints key pairs it accepts.
    upbeam: createUploadHandler({ ...settings, stsClient: local.stsClient }),
    nextS3Upload: nextPagesRoute(APIRoute.configure({ ...settings })),
    ...adminOps(admin, local.bucket),
    async close() {
      admin.destroy();
      await local.close();
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
    description: `Ceph radosgw ${version} (memstore OSD, objects in RAM; each object deleted after its run)`,
    endpoint: radosgw.endpoint,
    bucket,
    admin,
    storageCpuSeconds: () => matchingCpuSeconds(radosgw.dir),
    upbeam: createUploadHandler({ ...settings, roleArn, stsEndpoint: radosgw.endpoint }),
    nextS3Upload: nextPagesRoute(APIRoute.configure({ ...settings })),
    ...adminOps(admin, bucket),
    async close() {
      admin.destroy();
      await radosgw.close();
    },
  };
}
