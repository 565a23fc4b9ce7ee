/**
 * The temporary-token strategy's engine: a multipart upload with `@aws-sdk/lib-storage`, signed with the
 * temporary credentials. This module is only ever loaded with `import()`, so an app that uses only the
 * presigned strategy never downloads the AWS SDK.
 */
import { S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { XhrHttpHandler } from '@aws-sdk/xhr-http-handler';
import type { TemporaryTokenUploadResponse } from '@upbeam/upload-protocol';
import { createAbortError, UploadClientError } from './errors';
import type { MultipartSettings } from './multipart-options';

/** Cache-Control of objects stored on the token path (SPEC 9: 20 years, public). */
export const TOKEN_CACHE_CONTROL = 'max-age=630720000, public';

type Handle = XhrHttpHandler['handle'];

/**
 * XMLHttpRequest transport (the only browser API with upload progress; lib-storage reads its
 * `xhr.upload.progress` events) that cancels the requests carrying the file's bytes (PUT: UploadPart,
 * PutObject) when the upload's signal aborts. CreateMultipartUpload, CompleteMultipartUpload and
 * AbortMultipartUpload are left to finish, so that a cancelled upload is still cleaned up on storage.
 */
class CancellableXhrHandler extends XhrHttpHandler {
  readonly #signal: AbortSignal | undefined;

  constructor(signal: AbortSignal | undefined) {
    super({});
    this.#signal = signal;
  }

  override handle(...[request, options = {}]: Parameters<Handle>): ReturnType<Handle> {
    const abortSignal = options.abortSignal ?? (request.method === 'PUT' ? this.#signal : undefined);
    return super.handle(request, { ...options, abortSignal });
  }
}

interface MultipartInput {
  file: File;
  filetype: string;
  prepared: TemporaryTokenUploadResponse;
  settings: MultipartSettings;
  onProgress: (uploaded: number) => void;
  signal?: AbortSignal | undefined;
}

function toClientError(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  if (/missing ETag/i.test(error.message)) {
    return new UploadClientError(
      'MISSING_ETAG',
      `${error.message} Add "ETag" to the bucket's CORS ExposeHeaders: without it the browser cannot read part ETags and the multipart upload cannot complete.`,
      { cause: error },
    );
  }
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  if (status !== undefined) {
    return new UploadClientError('STORAGE_ERROR', `Storage refused the upload: ${status} ${error.name}.`, {
      status,
      cause: error,
    });
  }
  if (error instanceof TypeError || /network|xhr/i.test(error.message)) {
    return new UploadClientError('NETWORK_ERROR', 'The upload to storage failed without an answer: network down, or the bucket has no CORS rule for this origin.', {
      cause: error,
    });
  }
  return error;
}

/**
 * Uploads `file` to `prepared.key` with the temporary credentials: one PutObject below `partSize`, else a
 * multipart upload of `queueSize` parts at once. A failure or a cancel aborts the multipart upload on
 * storage (unless `leavePartsOnError`) before the promise settles.
 *
 * @throws `AbortError` DOMException (`Upload aborted.`) when `signal` aborts.
 * @throws {@link UploadClientError} `MISSING_ETAG`, `STORAGE_ERROR` or `NETWORK_ERROR`.
 */
export async function uploadMultipart(input: MultipartInput): Promise<void> {
  const { prepared, settings, signal } = input;
  if (signal?.aborted) throw createAbortError();
  const { Credentials } = prepared.token;
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
    requestHandler: new CancellableXhrHandler(signal),
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
  try {
    await upload.done();
  } catch (error) {
    if (signal?.aborted) throw createAbortError();
    throw toClientError(error);
  } finally {
    client.destroy();
  }
}
