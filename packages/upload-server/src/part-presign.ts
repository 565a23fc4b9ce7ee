import type { S3Client } from '@aws-sdk/client-s3';
import type { SignedPart } from '@upbeam/upload-protocol';
import { createUrlSigner, lowerCase, sseHeaders, type StorageClientSource } from './presign';
import { loadPresigner, loadS3 } from './sdk';
import type { ResolvedStorageSettings } from './settings';

/** One UploadPart to presign. */
export interface PartPresignInput {
  key: string;
  uploadId: string;
  /** 1 to 10000. */
  partNumber: number;
  /** The part's exact size in bytes, signed as Content-Length: storage refuses a part of any other size. */
  contentLength: number;
  /** Lifetime of the URL, in seconds. */
  expiresIn: number;
  /** Signing time; now when unset (tests pin it to compare URLs). */
  signingDate?: Date | undefined;
}

/** Signs UploadPart URLs; built once per handler. */
export type PartPresigner = (input: PartPresignInput) => Promise<SignedPart>;

/**
 * Presigns `PUT {key}?partNumber={n}&uploadId={id}` with the same fast path as the PutObject presigner
 * ({@link createUrlSigner}). Only what UploadPart takes is signed: Content-Length (the part's exact size,
 * so that the total size is enforced by storage) and, with an SSE-C key, the three SSE-C headers (S3
 * requires them on every part of an SSE-C upload). Content-Type, Cache-Control, Content-Disposition and
 * metadata belong to CreateMultipartUpload, which the server sends itself.
 */
export function createPartPresigner(settings: ResolvedStorageSettings, client: StorageClientSource, sign = createUrlSigner(settings, client)): PartPresigner {
  if (!sign) {
    let command: PartPresigner | undefined;
    return async (input) => (command ??= createCommandPartPresigner(settings, await client()))(input);
  }
  const sse = sseHeaders(settings.sseCustomerKey);
  return async (input) => {
    const extra = await sse;
    const url = await sign({
      key: input.key,
      query: { 'x-id': 'UploadPart', partNumber: String(input.partNumber), uploadId: input.uploadId },
      headers: { 'content-length': String(input.contentLength), ...lowerCase(extra) },
      signed: new Set(['content-length']),
      expiresIn: input.expiresIn,
      signingDate: input.signingDate,
    });
    return { partNumber: input.partNumber, url, ...(Object.keys(extra).length > 0 ? { headers: extra } : {}) };
  };
}

/** The reference path: `getSignedUrl` with an `UploadPartCommand` per URL (access-point ARNs; tests). */
export function createCommandPartPresigner(settings: ResolvedStorageSettings, client: S3Client): PartPresigner {
  const sse = settings.sseCustomerKey;
  const extra = sseHeaders(sse);
  return async (input) => {
    const [{ UploadPartCommand }, { getSignedUrl }] = await Promise.all([loadS3(), loadPresigner()]);
    const url = await getSignedUrl(
      client,
      new UploadPartCommand({
        Bucket: settings.bucket,
        Key: input.key,
        UploadId: input.uploadId,
        PartNumber: input.partNumber,
        ContentLength: input.contentLength,
        ...(sse ? { SSECustomerAlgorithm: 'AES256', SSECustomerKey: sse as unknown as string } : {}),
      }),
      {
        expiresIn: input.expiresIn,
        signableHeaders: new Set(['content-length']),
        ...(input.signingDate ? { signingDate: input.signingDate } : {}),
      },
    );
    const headers = await extra;
    return { partNumber: input.partNumber, url, ...(Object.keys(headers).length > 0 ? { headers } : {}) };
  };
}
