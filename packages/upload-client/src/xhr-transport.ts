/**
 * The HTTP transport of the multipart engine: `XMLHttpRequest` (the only browser API with upload
 * progress; lib-storage reads its `xhr.upload.progress` events), with what the AWS SDK's XHR handler
 * lacks for an upload that must survive a flaky network and be cancellable.
 */
import { XhrHttpHandler } from '@aws-sdk/xhr-http-handler';

type Handle = XhrHttpHandler['handle'];

/** Name of the error a request without an answer rejects with (connection reset, offline, CORS refusal). */
export const NETWORK_ERROR_NAME = 'NetworkError';

/** Name of the error an UploadPart answer without a readable ETag rejects with. */
export const MISSING_ETAG_NAME = 'MissingETag';

function namedError(name: string, message: string): Error {
  return Object.assign(new Error(message), { name });
}

/**
 * `XhrHttpHandler` with four changes:
 * - the requests that carry the file's bytes (PUT: UploadPart, PutObject) are cancelled when the upload's
 *   signal aborts; CreateMultipartUpload, CompleteMultipartUpload and AbortMultipartUpload are left to
 *   finish, so that a cancelled upload is still cleaned up on storage;
 * - a request that got no answer rejects with a `NetworkError` (the SDK handler resolves it as a response
 *   with status 0, which the S3 client would read as a success with empty fields);
 * - an UploadPart answer without a readable `ETag` rejects with a `MissingETag` error, which the retry
 *   strategy sends again: a proxy or a broken connection can lose a header once, while a bucket whose
 *   CORS rule does not expose it fails every attempt and ends with the CORS hint;
 * - it remembers the upload ids whose CompleteMultipartUpload got no answer: storage may have completed
 *   it, so a retry answered `NoSuchUpload` means done (see {@link UploadXhrHandler.completeWasUnanswered}).
 */
export class UploadXhrHandler extends XhrHttpHandler {
  readonly #signal: AbortSignal | undefined;
  readonly #unansweredCompletes = new Set<string>();

  constructor(signal: AbortSignal | undefined) {
    super({});
    this.#signal = signal;
  }

  /** Whether a CompleteMultipartUpload of this upload id was sent and got no answer. */
  completeWasUnanswered(uploadId: string | undefined): boolean {
    return uploadId !== undefined && this.#unansweredCompletes.has(uploadId);
  }

  override async handle(...[request, options = {}]: Parameters<Handle>): ReturnType<Handle> {
    const abortSignal = options.abortSignal ?? (request.method === 'PUT' ? this.#signal : undefined);
    const result = await super.handle(request, { ...options, abortSignal });
    const { response } = result;
    const uploadId = typeof request.query?.uploadId === 'string' ? request.query.uploadId : undefined;
    if (response.statusCode === 0) {
      if (abortSignal?.aborted) throw namedError('AbortError', 'Request aborted');
      if (request.method === 'POST' && uploadId !== undefined) this.#unansweredCompletes.add(uploadId);
      throw namedError(
        NETWORK_ERROR_NAME,
        `${request.method} ${request.path} got no answer from storage: connection lost, or no CORS rule for this origin.`,
      );
    }
    const ok = response.statusCode >= 200 && response.statusCode < 300;
    const partNumber = request.query?.partNumber;
    const hasEtag = Object.keys(response.headers).some((name) => name.toLowerCase() === 'etag');
    if (ok && request.method === 'PUT' && partNumber !== undefined && !hasEtag) {
      throw namedError(
        MISSING_ETAG_NAME,
        `Part ${String(partNumber)} is missing ETag in UploadPart response. Missing Bucket CORS configuration for ETag header?`,
      );
    }
    return result;
  }
}
