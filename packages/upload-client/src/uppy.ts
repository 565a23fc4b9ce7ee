/**
 * @module
 * `@upbeam/upload-client/uppy`: the options of Uppy's `@uppy/aws-s3` plugin, versions 4 and 5 (the
 * option-function API), mapped onto an Upbeam preparation endpoint: a single presigned PUT for small files,
 * a presigned multipart upload (create, sign part, list parts, complete, abort) for large ones. Uppy keeps
 * its own queue, retries, pause and progress; this module only talks to the endpoint. It imports nothing
 * of Uppy: the files it reads are typed by their shape ({@link UppyFileLike}).
 *
 * `@uppy/aws-s3` 6 replaced these options with `signRequest`, which asks for presigned CreateMultipartUpload
 * and CompleteMultipartUpload URLs; an Upbeam endpoint runs those calls itself (its ticket binds the upload),
 * so with version 6 only the single PUT works (see the docs' guide "Migrating from next-s3-upload and Uppy").
 */
import {
  DEFAULT_UPLOAD_ENDPOINT,
  FALLBACK_CONTENT_TYPE,
  MAX_PARTS,
  MIN_PART_SIZE,
  type CompleteMultipartResponse,
  type ListPartsResponse,
  type MultipartRequest,
  type MultipartUploadResponse,
  type PresignedUploadResponse,
  type SignPartsResponse,
  type UploadErrorBody,
  type UploadRequestBody,
} from '@upbeam/upload-protocol';
import { UploadClientError } from './errors';
import type { PrepareEndpoint } from './types';

/**
 * Files larger than this go multipart, in bytes (100 MiB): `@uppy/aws-s3`'s own default threshold.
 */
export const UPPY_MULTIPART_THRESHOLD = 100 * 1024 * 1024;

/** What the adapter reads of an Uppy file (`UppyFile`): its id, name, media type and size in bytes. */
export interface UppyFileLike {
  id: string;
  name?: string | undefined;
  type?: string | undefined;
  size: number | null;
}

/** The upload Uppy names in its multipart calls: storage's upload id (always set there) and the object key. */
export interface UppyUploadIdentity {
  uploadId?: string | undefined;
  key: string;
  signal?: AbortSignal | undefined;
}

/** A part as `@uppy/aws-s3` lists and completes it (S3's capitalized field names). */
export interface UppyPart {
  PartNumber?: number | undefined;
  ETag?: string | undefined;
  Size?: number | undefined;
}

/** Where Uppy sends bytes: a presigned PUT `url` and the `headers` it must carry, exactly. */
export interface UppyUploadParameters {
  method: 'PUT';
  url: string;
  headers?: Record<string, string> | undefined;
}

/** Options of {@link uppyS3Options}. */
export interface UppyS3AdapterOptions {
  /** The preparation endpoint: URL (default `/api/s3-upload`), extra headers, extra body fields. */
  endpoint?: PrepareEndpoint | undefined;
  /**
   * Files larger than this many bytes are sent as a multipart upload, the others with one PUT.
   * @default 104857600 (100 MiB, `UPPY_MULTIPART_THRESHOLD`)
   */
  multipartThreshold?: number | undefined;
  /**
   * Part size of a multipart upload, in bytes. Raised to 5242880 (S3 rejects smaller parts but the last:
   * EntityTooSmall) and to `ceil(size / 10000)` (S3 allows 10000 parts).
   * @default the smallest allowed: `max(5242880, ceil(size / 10000))`
   */
  partSize?: number | undefined;
}

/**
 * The `@uppy/aws-s3` (4.x, 5.x) options that {@link uppyS3Options} returns: pass them all to
 * `uppy.use(AwsS3, ...)`.
 */
export interface UppyS3Options {
  /** `true` for files over the threshold. */
  shouldUseMultipart(file: UppyFileLike): boolean;
  /** The part size for a file of `size` bytes; Uppy cuts the file in parts of exactly this size. */
  getChunkSize(file: { size: number }): number;
  /** A presigned PUT for the whole file. */
  getUploadParameters(file: UppyFileLike, options?: { signal?: AbortSignal | undefined }): Promise<UppyUploadParameters>;
  /** CreateMultipartUpload, by the endpoint (`create`); the ticket is kept for the file's later calls. */
  createMultipartUpload(file: UppyFileLike): Promise<{ uploadId: string; key: string }>;
  /** A presigned UploadPart URL for one part (`sign-parts`); it signs the part's exact Content-Length. */
  signPart(file: UppyFileLike, options: UppyUploadIdentity & { partNumber: number }): Promise<UppyUploadParameters>;
  /**
   * The parts storage holds (`list-parts`), when Uppy resumes a paused upload. Uppy drops a part's bytes
   * once it is stored, so it resumes only on storage with ListParts (S3, R2, MinIO, Ceph); elsewhere this
   * rejects with the endpoint's 501 `NOT_SUPPORTED`.
   */
  listParts(file: UppyFileLike, options: UppyUploadIdentity): Promise<UppyPart[]>;
  /** CompleteMultipartUpload, by the endpoint (`complete`); resolves the object's URL as `location`. */
  completeMultipartUpload(file: UppyFileLike, options: UppyUploadIdentity & { parts: UppyPart[] }): Promise<{ location: string }>;
  /** AbortMultipartUpload, by the endpoint (`abort`): no part is left on storage. */
  abortMultipartUpload(file: UppyFileLike, options: UppyUploadIdentity): Promise<void>;
}

/** What the adapter keeps of one multipart upload, by Uppy file id. */
interface OpenUpload {
  uploadId: string;
  ticket: string;
  /** The object's URL without query, learnt from a signed part URL (storage's own addressing). */
  location?: string;
}

/**
 * Options for `@uppy/aws-s3` 4.x and 5.x that upload through an Upbeam endpoint (`createUploadHandler`).
 * Files up to `multipartThreshold` bytes get a presigned PUT (the `presigned` strategy); larger ones a
 * presigned multipart upload, whose ticket the adapter keeps per Uppy file id (an upload is resumable while
 * the page lives; Golden Retriever's resume after a reload is not supported: the ticket is gone). The part
 * size is the one `getChunkSize` gives Uppy, so Uppy's parts have exactly the sizes the endpoint signed
 * (each UploadPart URL signs its part's Content-Length: a part of another size gets 403 from storage).
 *
 * Every call POSTs `{ filename, filetype, filesize, _upload }` and the extra fields of `endpoint.body` (which
 * cannot replace those): `filesize` is always sent, so a server with `maxFileSize` works. A file without a
 * media type is sent as `application/octet-stream`. One request a call: `signPart` asks for one part's URL.
 *
 * @throws `UploadClientError` (from the returned functions) `PREPARE_FAILED` with the endpoint's `error`
 *   text, `status` and `answerCode` on a non-2xx answer; `NETWORK_ERROR` when the endpoint cannot be reached
 *   (Uppy retries `signPart`); `INVALID_OPTIONS` when a multipart call names an upload this page did not
 *   create. An aborted call rejects with the `signal`'s `AbortError`, which Uppy expects.
 * @example
 * import Uppy from '@uppy/core';
 * import AwsS3 from '@uppy/aws-s3';
 * import { uppyS3Options } from '@upbeam/upload-client/uppy';
 *
 * new Uppy().use(AwsS3, { ...uppyS3Options({ endpoint: { url: '/api/s3-upload' } }) });
 */
export function uppyS3Options(options: UppyS3AdapterOptions = {}): UppyS3Options {
  const url = options.endpoint?.url ?? DEFAULT_UPLOAD_ENDPOINT;
  const threshold = options.multipartThreshold ?? UPPY_MULTIPART_THRESHOLD;
  const uploads = new Map<string, OpenUpload>();

  const partSizeFor = (size: number) => Math.max(options.partSize ?? 0, MIN_PART_SIZE, Math.ceil(size / MAX_PARTS));

  async function post<T>(file: UppyFileLike, marker: UploadRequestBody['_upload'], signal?: AbortSignal): Promise<T> {
    const body: UploadRequestBody = {
      ...options.endpoint?.body,
      filename: file.name ?? file.id,
      filetype: file.type || FALLBACK_CONTENT_TYPE,
      filesize: file.size ?? 0,
      _upload: marker,
    };
    const response = await fetch(url, {
      method: 'POST',
      headers: { ...options.endpoint?.headers, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      signal: signal ?? null,
    }).catch((error: unknown) => {
      if (signal?.aborted) throw error;
      throw new UploadClientError('NETWORK_ERROR', `No answer from the upload endpoint ${url}.`, { cause: error });
    });
    const answer = (await response.json().catch(() => undefined)) as (T & Partial<UploadErrorBody>) | undefined;
    if (!response.ok || answer === undefined) {
      throw new UploadClientError('PREPARE_FAILED', String(answer?.error || `Upload endpoint answered ${response.status}.`), {
        status: response.status,
        answerCode: answer?.code,
      });
    }
    return answer;
  }

  const multipart = <T>(file: UppyFileLike, operation: MultipartRequest, signal?: AbortSignal) =>
    post<T>(file, { strategy: 'presigned', multipart: operation }, signal);

  /** The upload this page created for the file, checked against the id Uppy names. */
  function openUpload(file: UppyFileLike, uploadId: string | undefined): OpenUpload {
    const upload = uploads.get(file.id);
    if (upload === undefined || upload.uploadId !== uploadId) {
      throw new UploadClientError('INVALID_OPTIONS', `No ticket for multipart upload ${uploadId} of ${file.name ?? file.id}: start it again.`);
    }
    return upload;
  }

  return {
    shouldUseMultipart: (file) => (file.size ?? 0) > threshold,
    getChunkSize: ({ size }) => partSizeFor(size),

    async getUploadParameters(file, { signal } = {}) {
      const { url: putUrl, headers } = await post<PresignedUploadResponse>(file, { strategy: 'presigned' }, signal);
      return { method: 'PUT', url: putUrl, headers };
    },

    async createMultipartUpload(file) {
      const created = await multipart<MultipartUploadResponse>(file, { action: 'create', partSize: partSizeFor(file.size ?? 0) });
      uploads.set(file.id, { uploadId: created.uploadId, ticket: created.ticket });
      return { uploadId: created.uploadId, key: created.key };
    },

    async signPart(file, { uploadId, partNumber, signal }) {
      const upload = openUpload(file, uploadId);
      const { parts } = await multipart<SignPartsResponse>(file, { action: 'sign-parts', ticket: upload.ticket, partNumbers: [partNumber] }, signal);
      const [part] = parts;
      if (!part) throw new UploadClientError('INVALID_PREPARE_RESPONSE', `Upload endpoint ${url} answered without a URL for part ${partNumber}.`);
      const signed = new URL(part.url);
      upload.location ??= `${signed.origin}${signed.pathname}`;
      return { method: 'PUT', url: part.url, headers: part.headers };
    },

    async listParts(file, { uploadId, signal }) {
      const upload = openUpload(file, uploadId);
      const { parts } = await multipart<ListPartsResponse>(file, { action: 'list-parts', ticket: upload.ticket }, signal);
      return parts.map(({ partNumber, etag, size }) => ({ PartNumber: partNumber, ETag: etag, Size: size }));
    },

    async completeMultipartUpload(file, { uploadId, parts, signal }) {
      const upload = openUpload(file, uploadId);
      const completed = parts
        .map(({ PartNumber, ETag }) => ({ partNumber: Number(PartNumber), etag: String(ETag) }))
        .sort((a, b) => a.partNumber - b.partNumber);
      await multipart<CompleteMultipartResponse>(file, { action: 'complete', ticket: upload.ticket, parts: completed }, signal);
      uploads.delete(file.id);
      return { location: upload.location ?? '' };
    },

    async abortMultipartUpload(file, { uploadId, signal }) {
      const upload = openUpload(file, uploadId);
      await multipart(file, { action: 'abort', ticket: upload.ticket }, signal);
      uploads.delete(file.id);
    },
  };
}
