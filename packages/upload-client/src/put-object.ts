import { createAbortError, UploadClientError } from './errors';

/** One PUT of a whole file to a (presigned) URL. */
export interface PutObjectInput {
  url: string;
  /** The file; sent as a stream by the browser, never read into memory. */
  body: Blob;
  /** Request headers; for a presigned URL exactly the signed ones. */
  headers: Record<string, string>;
  /** Called with the bytes sent so far, as the browser reports them. */
  onProgress?: (uploaded: number) => void;
  signal?: AbortSignal | undefined;
}

/** What storage answered to a successful PUT. */
export interface PutObjectOutput {
  /** The object's ETag, when the bucket's CORS rule exposes it. */
  etag: string | undefined;
}

/** Reads `<Code>` of an S3 XML error body, e.g. `SignatureDoesNotMatch`, `AccessDenied`. */
function s3ErrorCode(text: string): string | undefined {
  return /<Code>([^<]{1,100})<\/Code>/.exec(text)?.[1];
}

/**
 * PUTs `body` to `url` with `XMLHttpRequest`, the one browser API that reports upload progress
 * (`fetch` has no upload progress events).
 *
 * @throws `AbortError` DOMException (`Upload aborted.`) when `signal` aborts.
 * @throws {@link UploadClientError} `STORAGE_ERROR` (with `status` and the S3 error code) on a non-2xx
 *   answer; `NETWORK_ERROR` when no answer came (a CORS rule missing on the bucket looks like this too).
 */
export function putObject(input: PutObjectInput): Promise<PutObjectOutput> {
  const { signal } = input;
  if (signal?.aborted) return Promise.reject(createAbortError());
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const onAbort = () => xhr.abort();
    const settle = (fn: () => void) => {
      signal?.removeEventListener('abort', onAbort);
      fn();
    };
    xhr.open('PUT', input.url);
    for (const [name, value] of Object.entries(input.headers)) xhr.setRequestHeader(name, value);
    if (input.onProgress) {
      const report = input.onProgress;
      xhr.upload.addEventListener('progress', (event) => report(event.loaded));
    }
    xhr.addEventListener('load', () =>
      settle(() => {
        if (xhr.status >= 200 && xhr.status < 300) {
          resolve({ etag: xhr.getResponseHeader('ETag') ?? undefined });
          return;
        }
        const code = s3ErrorCode(xhr.responseText);
        reject(
          new UploadClientError('STORAGE_ERROR', `Storage refused the upload: ${xhr.status}${code ? ` ${code}` : ''}.`, {
            status: xhr.status,
          }),
        );
      }),
    );
    xhr.addEventListener('error', () =>
      settle(() =>
        reject(
          new UploadClientError(
            'NETWORK_ERROR',
            'The upload to storage failed without an answer: network down, or the bucket has no CORS rule for this origin.',
          ),
        ),
      ),
    );
    xhr.addEventListener('abort', () => settle(() => reject(createAbortError())));
    signal?.addEventListener('abort', onAbort, { once: true });
    xhr.send(input.body);
  });
}
