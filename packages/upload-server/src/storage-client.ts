import type { S3Client } from '@aws-sdk/client-s3';
import { loadS3, S3_CLIENT_DEFAULTS } from './sdk';
import type { ResolvedStorageSettings } from './settings';

/**
 * The one S3 client of a handler, built on first use with the server's own credentials and reused by
 * every request (endpoint resolution and credentials are set up once). `@aws-sdk/client-s3` is imported
 * then, not with the package, and the SDK's other defaults are fixed (`sdk.ts`: no `AWS_*`, no `~/.aws`).
 *
 * Checksums are `WHEN_REQUIRED`: since 2025 the SDK otherwise adds CRC32 checksums by default, and
 * `x-amz-checksum-crc32` of an *empty* body to presigned PUT URLs, which S3-compatible servers (R2, MinIO,
 * Ceph) reject.
 */
export async function createStorageClient(settings: ResolvedStorageSettings): Promise<S3Client> {
  const { S3Client } = await loadS3();
  return new S3Client({
    ...S3_CLIENT_DEFAULTS,
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.forcePathStyle,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}
