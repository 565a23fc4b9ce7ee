import {
  DEFAULT_UPLOAD_ENDPOINT,
  type PresignedUploadResponse,
  type UploadErrorBody,
  type UploadRequestBody,
  type UploadStrategy,
} from '@upbeam/upload-protocol';
import { createAbortError, UploadClientError } from './errors';

/** Where and how to reach the preparation endpoint. */
export interface PrepareEndpoint {
  /** URL of the preparation endpoint. @default '/api/s3-upload' */
  url?: string;
  /** Extra request headers (e.g. an auth token). `Content-Type: application/json` is always sent. */
  headers?: Record<string, string>;
  /** Extra JSON body fields sent beside `filename`, `filetype` and `_upload`; they cannot replace those. */
  body?: Record<string, unknown>;
}

interface PrepareInput {
  filename: string;
  filetype: string;
  strategy: UploadStrategy;
  endpoint?: PrepareEndpoint | undefined;
  signal?: AbortSignal | undefined;
}

async function readJson(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    return undefined;
  }
}

function isPresigned(value: unknown): value is PresignedUploadResponse {
  const v = value as Partial<PresignedUploadResponse> | null;
  return typeof v?.url === 'string' && typeof v.key === 'string' && typeof v.bucket === 'string';
}

/**
 * POSTs `{ filename, filetype, _upload: { strategy }, ...body }` to the preparation endpoint.
 *
 * @throws `AbortError` DOMException (`Upload aborted.`) when `signal` aborts.
 * @throws {@link UploadClientError} `PREPARE_FAILED` with the endpoint's `error` text (e.g.
 *   `Internal Server Error`) and `status` on a non-2xx answer; `NETWORK_ERROR` when the endpoint cannot be
 *   reached; `INVALID_PREPARE_RESPONSE` when a 2xx answer lacks `url`, `key` or `bucket`.
 */
export async function preparePresignedUpload(input: PrepareInput): Promise<PresignedUploadResponse> {
  const url = input.endpoint?.url ?? DEFAULT_UPLOAD_ENDPOINT;
  const body: UploadRequestBody = {
    ...input.endpoint?.body,
    filename: input.filename,
    filetype: input.filetype,
    _upload: { strategy: input.strategy },
  };
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { ...input.endpoint?.headers, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      signal: input.signal,
    });
  } catch (error) {
    if (input.signal?.aborted) throw createAbortError();
    throw new UploadClientError('NETWORK_ERROR', `Could not reach the upload endpoint ${url}.`, { cause: error });
  }
  const answer = await readJson(response);
  if (input.signal?.aborted) throw createAbortError();
  if (!response.ok) {
    const message = (answer as UploadErrorBody | undefined)?.error;
    throw new UploadClientError(
      'PREPARE_FAILED',
      typeof message === 'string' && message !== '' ? message : `Upload endpoint answered ${response.status}.`,
      { status: response.status },
    );
  }
  if (!isPresigned(answer)) {
    throw new UploadClientError(
      'INVALID_PREPARE_RESPONSE',
      `Upload endpoint ${url} answered without "url", "key" and "bucket": is it an Upbeam handler with the presigned strategy?`,
      { status: response.status },
    );
  }
  return answer;
}
