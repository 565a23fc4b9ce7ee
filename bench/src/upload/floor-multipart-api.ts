/**
 * The page server's side of the browser multipart floor (floor-multipart.ts): CreateMultipartUpload and
 * every UploadPart URL presigned at once, then CompleteMultipartUpload, with the storage's own keys (as the
 * curl multipart floor does). A bench helper, not an example: no checks beyond what the benchmark needs.
 */
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { FloorMultipartPlan } from './floor-multipart';
import type { Target } from './targets';

/** Seconds a presigned UploadPart URL of the floor stays valid. */
const PART_URL_SECONDS = 3600;

interface CreateBody {
  size: number;
  partSize: number;
}

interface CompleteBody {
  key: string;
  uploadId: string;
  etags: string[];
}

async function create(target: Target, { size, partSize }: CreateBody): Promise<FloorMultipartPlan> {
  const { admin, bucket } = target;
  const key = `bench/floor-multipart-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}.bin`;
  const { UploadId } = await admin.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: key, ContentType: 'application/octet-stream' }));
  const parts = Math.max(1, Math.ceil(size / partSize));
  const urls = await Promise.all(
    Array.from({ length: parts }, (_, index) =>
      getSignedUrl(admin, new UploadPartCommand({ Bucket: bucket, Key: key, UploadId, PartNumber: index + 1 }), { expiresIn: PART_URL_SECONDS }),
    ),
  );
  return { key, uploadId: UploadId!, urls };
}

async function complete(target: Target, { key, uploadId, etags }: CompleteBody): Promise<{ url: string }> {
  const { admin, bucket } = target;
  try {
    await admin.send(
      new CompleteMultipartUploadCommand({
        Bucket: bucket,
        Key: key,
        UploadId: uploadId,
        MultipartUpload: { Parts: etags.map((etag, index) => ({ PartNumber: index + 1, ETag: etag })) },
      }),
    );
  } catch (error) {
    await admin.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: uploadId })).catch(() => {});
    throw error;
  }
  return { url: `${target.endpoint}/${bucket}/${key}` };
}

/** Answers `/api/floor-multipart/create` and `/complete` for `target`; `undefined` for any other path. */
export async function floorMultipartApi(target: Target, path: string, request: Request): Promise<Response | undefined> {
  if (path === '/api/floor-multipart/create') return Response.json(await create(target, (await request.json()) as CreateBody));
  if (path === '/api/floor-multipart/complete') return Response.json(await complete(target, (await request.json()) as CompleteBody));
  return undefined;
}
