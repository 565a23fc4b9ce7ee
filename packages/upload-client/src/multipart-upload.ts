/**
 * The temporary-token strategy's engine: a multipart upload with `@aws-sdk/lib-storage`, signed with the
 * temporary credentials. This module is only ever loaded with `import()`, so an app that uses only the
 * presigned strategy never downloads the AWS SDK.
 */
import { PutObjectTaggingCommand, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { TemporaryTokenUploadResponse } from '@upbeam/upload-protocol';
import { createAbortError } from './abort';
import type { MultipartSettings } from './part-math';
import type { RetrySettings } from './retry';
import { createRetryStrategy } from './sdk-retry-strategy';
import { toClientError } from './sdk-errors';
import { UploadXhrHandler } from './xhr-transport';

/** Cache-Control of objects stored on the token path (SPEC 9: 20 years, public). */
export const TOKEN_CACHE_CONTROL = 'max-age=630720000, public';

interface MultipartInput {
  file: File;
  filetype: string;
  prepared: TemporaryTokenUploadResponse;
  settings: MultipartSettings;
  retry: RetrySettings;
  onProgress: (uploaded: number) => void;
  signal?: AbortSignal | undefined;
}

/**
 * Uploads `file` to `prepared.key` with the temporary credentials: one PutObject below `partSize`, else a
 * multipart upload of `queueSize` parts at once. Every request is retried as the presigned PUT is
 * (`retry.maxAttempts` attempts; a retried part restarts from its first byte, reported progress holds).
 * A failure or a cancel aborts the multipart upload on storage (unless `leavePartsOnError`) before the
 * promise settles.
 *
 * A CompleteMultipartUpload that got no answer may have been done by storage: if its retry is answered
 * `NoSuchUpload`, the upload counts as stored (AWS S3 answers such a retry 200; MinIO and Ceph radosgw
 * may answer `NoSuchUpload`; the temporary credentials cannot read the object to check).
 *
 * @throws `AbortError` DOMException (`Upload aborted.`) when `signal` aborts.
 * @throws {@link UploadClientError} `MISSING_ETAG`, `STORAGE_ERROR` or `NETWORK_ERROR`.
 */
export async function uploadMultipart(input: MultipartInput): Promise<void> {
  const { prepared, settings, signal } = input;
  if (signal?.aborted) throw createAbortError();
  const { Credentials } = prepared.token;
  const transport = new UploadXhrHandler(signal);
  const client = new S3Client({
    region: prepared.region,
    endpoint: prepared.endpoint,
    forcePathStyle: prepared.forcePathStyle ?? false,
    credentials: {
      accessKeyId: Credentials.AccessKeyId,
      secretAccessKey: Credentials.SecretAccessKey,
      sessionToken: Credentials.SessionToken,
    },
    // S3-compatible servers (R2, MinIO, Ceph) refuse the CRC32 trailers the SDK adds by default since 2025.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    requestHandler: transport,
    maxAttempts: input.retry.maxAttempts,
    retryStrategy: createRetryStrategy(input.retry, signal),
  });
  const upload = new Upload({
    client,
    params: {
      Bucket: prepared.bucket,
      Key: prepared.key,
      Body: input.file,
      ContentType: input.filetype,
      ContentDisposition: prepared.contentDisposition,
      Metadata: prepared.metadata,
      CacheControl: TOKEN_CACHE_CONTROL,
    },
    partSize: settings.partSize,
    queueSize: settings.queueSize,
    leavePartsOnError: settings.leavePartsOnError,
    tags: settings.tags,
  });
  upload.on('httpUploadProgress', (progress) => input.onProgress(progress.loaded ?? 0));
  const failures = recordFailures(client);
  try {
    await upload.done().catch(async (error: unknown) => {
      if (signal?.aborted || !isCompletedBefore(error, transport, upload)) throw error;
      // Done by the unanswered CompleteMultipartUpload: what lib-storage would still have done is tagging.
      if (settings.tags.length > 0) {
        await client.send(
          new PutObjectTaggingCommand({ Bucket: prepared.bucket, Key: prepared.key, Tagging: { TagSet: settings.tags } }),
        );
      }
    });
  } catch (error) {
    if (signal?.aborted) throw createAbortError();
    // When the cleanup (AbortMultipartUpload) fails too, lib-storage throws its error: report the cause.
    throw toClientError(error === failures.abort ? (failures.first ?? error) : error);
  } finally {
    client.destroy();
  }
}

/** `NoSuchUpload` answering the retry of a CompleteMultipartUpload whose first attempt got no answer. */
function isCompletedBefore(error: unknown, transport: UploadXhrHandler, upload: Upload): boolean {
  const uploadId = (upload as unknown as { uploadId?: string }).uploadId;
  return (error as { name?: unknown } | null)?.name === 'NoSuchUpload' && transport.completeWasUnanswered(uploadId);
}

/**
 * Keeps the first error of the upload's requests, and the error of its AbortMultipartUpload, as the
 * client's commands throw them (after their retries).
 */
function recordFailures(client: S3Client): { first?: unknown; abort?: unknown } {
  const failures: { first?: unknown; abort?: unknown } = {};
  client.middlewareStack.add(
    (next, context) => async (args) => {
      try {
        return await next(args);
      } catch (error) {
        if (context.commandName === 'AbortMultipartUploadCommand') failures.abort = error;
        else failures.first ??= error;
        throw error;
      }
    },
    { step: 'initialize', name: 'upbeamRecordFailures' },
  );
  return failures;
}
