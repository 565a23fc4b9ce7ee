/** How the multipart engine's AWS SDK errors become the engine's own {@link UploadClientError}s. */
import { NO_ANSWER_MESSAGE, storageRefusalMessage, UploadClientError } from './errors';
import { NETWORK_ERROR_NAME } from './xhr-transport';

/** HTTP status of an AWS SDK service error, when storage answered. */
export function sdkErrorStatus(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
}

/**
 * Maps an error of lib-storage or the S3 client to an {@link UploadClientError}, the SDK error kept as
 * `cause`: `MISSING_ETAG` (with the CORS hint), `STORAGE_ERROR` when storage answered (`status`; the S3 code,
 * which the SDK makes the error's name, as `answerCode`), `NETWORK_ERROR` when it did not. Anything else is returned as it is.
 */
export function toClientError(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  if (/missing ETag/i.test(error.message)) {
    return new UploadClientError(
      'MISSING_ETAG',
      `${error.message} Add "ETag" to the bucket's CORS ExposeHeaders: without it the browser cannot read part ETags and the multipart upload cannot complete.`,
      { cause: error },
    );
  }
  const status = sdkErrorStatus(error);
  if (status !== undefined) {
    return new UploadClientError('STORAGE_ERROR', storageRefusalMessage(status, error.name, error.message), {
      status,
      answerCode: error.name,
      cause: error,
    });
  }
  if (error.name === NETWORK_ERROR_NAME || error instanceof TypeError || /network|xhr/i.test(error.message)) {
    return new UploadClientError(
      'NETWORK_ERROR',
      NO_ANSWER_MESSAGE,
      { cause: error },
    );
  }
  return error;
}
