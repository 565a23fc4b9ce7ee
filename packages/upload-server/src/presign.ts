import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { OBJECT_CACHE_CONTROL } from '@upbeam/upload-protocol';
import type { ResolvedStorageSettings } from './settings';

/** Lifetime of a presigned PUT URL, in seconds (SPEC 7.3; the SDK's own default is 900). */
export const PRESIGNED_URL_EXPIRES_IN = 3600;

/** What one presigned PUT stores. */
export interface PresignInput {
  key: string;
  contentType: string;
  /** Lifetime of the URL, in seconds. */
  expiresIn: number;
  /** Exact size in bytes the PUT must have; signed as Content-Length when given. */
  contentLength?: number | undefined;
  contentDisposition?: string | undefined;
  /** User metadata, stored as `x-amz-meta-*` (carried in the URL's query, signed). */
  metadata?: Record<string, string> | undefined;
}

/** A presigned PUT: the URL and the headers the browser must send with it, exactly. */
export interface PresignedPut {
  url: string;
  headers: Record<string, string>;
}

/** Signs `PUT {key}` URLs; built once per handler, reused for every request. */
export type Presigner = (input: PresignInput) => Promise<PresignedPut>;

function base64(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes));
}

async function md5Base64(bytes: Uint8Array): Promise<string> {
  const { createHash } = await import('node:crypto');
  return createHash('md5').update(bytes).digest('base64');
}

/**
 * Builds the presigner of one handler around its long-lived `S3Client` ({@link createStorageClient}).
 *
 * `getSignedUrl` signs only `host` by default, which would let the browser store any Content-Type (an
 * HTML file served as `text/html` from your bucket); Content-Type, Cache-Control, Content-Disposition
 * and Content-Length are signed here, so storage answers 403 SignatureDoesNotMatch to a PUT that differs.
 */
export function createPresigner(settings: ResolvedStorageSettings, client: S3Client): Presigner {
  const sse = settings.sseCustomerKey;
  const sseHeaders = sse
    ? md5Base64(sse).then((md5) => ({
        'x-amz-server-side-encryption-customer-algorithm': 'AES256',
        'x-amz-server-side-encryption-customer-key': base64(sse),
        'x-amz-server-side-encryption-customer-key-MD5': md5,
      }))
    : Promise.resolve({});
  sseHeaders.catch(() => {});

  return async (input) => {
    const signed = new Set(['content-type', 'cache-control']);
    const headers: Record<string, string> = { 'Content-Type': input.contentType, 'Cache-Control': OBJECT_CACHE_CONTROL };
    if (input.contentDisposition !== undefined) {
      signed.add('content-disposition');
      headers['Content-Disposition'] = input.contentDisposition;
    }
    // The browser sets Content-Length itself (a forbidden header for scripts): signed, not sent by us.
    if (input.contentLength !== undefined) signed.add('content-length');
    const url = await getSignedUrl(
      client,
      new PutObjectCommand({
        Bucket: settings.bucket,
        Key: input.key,
        ContentType: input.contentType,
        CacheControl: OBJECT_CACHE_CONTROL,
        ContentDisposition: input.contentDisposition,
        ContentLength: input.contentLength,
        Metadata: input.metadata,
        ...(sse ? { SSECustomerAlgorithm: 'AES256', SSECustomerKey: sse as unknown as string } : {}),
      }),
      { expiresIn: input.expiresIn, signableHeaders: signed },
    );
    return { url, headers: { ...headers, ...(await sseHeaders) } };
  };
}
