import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { OBJECT_CACHE_CONTROL } from '@upbeam/upload-protocol';
import type { ResolvedStorageSettings } from './settings';

/** Lifetime of a presigned PUT URL, in seconds (SPEC 7.3; the SDK's own default is 900). */
export const PRESIGNED_URL_EXPIRES_IN = 3600;

/**
 * Headers bound into the signature. `getSignedUrl` signs only `host` by default, which would let the
 * browser store any Content-Type (an HTML file served as `text/html` from your bucket); signing them
 * makes storage answer 403 SignatureDoesNotMatch to a PUT that sends other values.
 */
const SIGNED_HEADERS = new Set(['content-type', 'cache-control']);

/** Signs `PUT {key}` URLs; built once per handler, reused for every request. */
export type Presigner = (input: { key: string; contentType: string; expiresIn: number }) => Promise<string>;

/**
 * Builds the presigner of one handler around one long-lived `S3Client` (endpoint resolution and
 * credentials are set up once, not per request).
 *
 * Checksums are `WHEN_REQUIRED`: since 2025 the SDK otherwise adds `x-amz-checksum-crc32` of an *empty*
 * body to presigned PUT URLs, which S3-compatible servers (R2, MinIO, Ceph) reject.
 */
export function createPresigner(settings: ResolvedStorageSettings): Presigner {
  const client = new S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.forcePathStyle,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  return ({ key, contentType, expiresIn }) =>
    getSignedUrl(
      client,
      new PutObjectCommand({
        Bucket: settings.bucket,
        Key: key,
        ContentType: contentType,
        CacheControl: OBJECT_CACHE_CONTROL,
      }),
      { expiresIn, signableHeaders: SIGNED_HEADERS },
    );
}
