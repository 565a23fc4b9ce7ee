import type { S3Client } from '@aws-sdk/client-s3';
import { CHECKSUM_HEADERS, type ChecksumAlgorithm, type SignedPart } from '@upbeam/upload-protocol';
import { createUrlSigner, lowerCase, sseHeaders, type StorageClientSource } from './presign';
import { ANSWER_CHECKSUM_HEADERS, SDK_CHECKSUM_FIELDS } from './upload-checksum';
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
  /**
   * The part's checksum (base64 of its digest), signed as its header (`x-amz-checksum-*` kept a header, or
   * `Content-MD5`) and returned in the part's `headers`: storage refuses other bytes for this part.
   */
  checksum?: { algorithm: ChecksumAlgorithm; value: string } | undefined;
  /** Signing time; now when unset (tests pin it to compare URLs). */
  signingDate?: Date | undefined;
}

/** Signs UploadPart URLs; built once per handler. */
export type PartPresigner = (input: PartPresignInput) => Promise<SignedPart>;

/**
 * Presigns `PUT {key}?partNumber={n}&uploadId={id}` with the same fast path as the PutObject presigner
 * ({@link createUrlSigner}). Only what UploadPart takes is signed: Content-Length (the part's exact size,
 * so that the total size is enforced by storage), the part's checksum when the upload has one (its header, in
 * the part's `headers`: storage refuses other bytes) and, with an SSE-C key, the three SSE-C headers (S3
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
    const extra = { ...(await sse), ...checksumHeader(input) };
    const signed = new Set(['content-length']);
    if (input.checksum) signed.add(CHECKSUM_HEADERS[input.checksum.algorithm]);
    const url = await sign({
      key: input.key,
      query: { 'x-id': 'UploadPart', partNumber: String(input.partNumber), uploadId: input.uploadId },
      headers: { 'content-length': String(input.contentLength), ...lowerCase(extra) },
      signed,
      ...(input.checksum ? { unhoistable: signed } : {}),
      expiresIn: input.expiresIn,
      signingDate: input.signingDate,
    });
    return { partNumber: input.partNumber, url, ...(Object.keys(extra).length > 0 ? { headers: extra } : {}) };
  };
}

/** The part's checksum header as the browser sends it (the answer's casing), when it has one. */
function checksumHeader(input: PartPresignInput): Record<string, string> {
  return input.checksum ? { [ANSWER_CHECKSUM_HEADERS[input.checksum.algorithm]]: input.checksum.value } : {};
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
        ...(input.checksum ? { [SDK_CHECKSUM_FIELDS[input.checksum.algorithm]]: input.checksum.value } : {}),
        ...(sse ? { SSECustomerAlgorithm: 'AES256', SSECustomerKey: sse as unknown as string } : {}),
      }),
      {
        expiresIn: input.expiresIn,
        signableHeaders: new Set(['content-length', ...(input.checksum ? [CHECKSUM_HEADERS[input.checksum.algorithm]] : [])]),
        ...(input.checksum ? { unhoistableHeaders: new Set([CHECKSUM_HEADERS[input.checksum.algorithm]]) } : {}),
        ...(input.signingDate ? { signingDate: input.signingDate } : {}),
      },
    );
    const headers = { ...(await extra), ...checksumHeader(input) };
    return { partNumber: input.partNumber, url, ...(Object.keys(headers).length > 0 ? { headers } : {}) };
  };
}
