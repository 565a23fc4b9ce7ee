import type { S3Client } from '@aws-sdk/client-s3';
import { MAX_PARTS, OBJECT_CACHE_CONTROL, type ChecksumAlgorithm, type CompletedPart, type StoredPart } from '@upbeam/upload-protocol';
import { UploadError } from './errors';
import { multipartCreateChecksum, reportedChecksum, SDK_CHECKSUM_FIELDS } from './upload-checksum';
import { loadS3 } from './sdk';
import type { ResolvedStorageSettings } from './settings';

/** What CreateMultipartUpload stores with the object: every header is set here, none by the parts. */
export interface MultipartObject {
  key: string;
  contentType: string;
  contentDisposition?: string | undefined;
  metadata?: Record<string, string> | undefined;
  /** Tags stored with the object, URL-encoded (`a=1&b=2`, the `x-amz-tagging` form); `''` or unset: none. */
  tagging?: string | undefined;
  /**
   * The checksum each part carries (`ChecksumAlgorithm` and `ChecksumType` of CreateMultipartUpload:
   * `MULTIPART_CHECKSUM_TYPES`); MD5 sets none (its multipart checksum is the ETag). Unset: none.
   */
  checksum?: ChecksumAlgorithm | undefined;
}

/** How a multipart upload is completed beyond its parts. */
export interface CompleteOptions {
  /** The upload's algorithm: each part's checksum is listed (`ChecksumCRC32C`, ...; none for MD5). */
  checksum?: ChecksumAlgorithm | undefined;
  /** The whole object's checksum (base64), for a full-object one (CRC64NVME): sent with `ChecksumType: 'FULL_OBJECT'`. */
  objectChecksum?: string | undefined;
  /**
   * Sends `IfNoneMatch: '*'`: storage refuses (412) to complete over an object already at the key.
   * @default the settings' `conditionalWrites`
   */
  ifNoneMatch?: boolean | undefined;
  /**
   * A content-addressed key: a 412 means another upload stored these bytes first; the upload is aborted and
   * the stored object answered (`alreadyStored`).
   */
  contentAddressed?: boolean | undefined;
}

/** A completed multipart upload. */
export interface CompletedObject {
  /** The object's ETag, in quotes. */
  etag: string;
  /** The object's checksum of the upload's algorithm, as storage reported it (base64, `-N` composite); undefined: none reported. */
  checksum?: string | undefined;
  /** True when nothing was completed: another upload had stored the object at this content-addressed key. */
  alreadyStored?: true;
}

/** One multipart upload on storage. */
export interface UploadRef {
  key: string;
  uploadId: string;
}

/** The multipart calls the server makes itself, with its own credentials. */
export interface MultipartStorage {
  /**
   * CreateMultipartUpload. @returns storage's upload id. When storage answered but its answer could not be
   * read, the upload it created is aborted before the error propagates.
   */
  create(object: MultipartObject): Promise<string>;
  /**
   * ListParts, every page (up to 10000 parts).
   * @throws {@link UploadError} `NO_SUCH_UPLOAD` (404); `NOT_SUPPORTED` (501) when storage has no ListParts.
   */
  listParts(upload: UploadRef): Promise<StoredPart[]>;
  /**
   * CompleteMultipartUpload with `parts` (sorted, 1 to N). @returns the object's ETag (and checksum).
   * @throws {@link UploadError} `NO_SUCH_UPLOAD` (404) unless the object is already there (a retried
   *   complete whose first answer was lost); `INVALID_PART` (400) when an ETag is not storage's;
   *   `OBJECT_EXISTS` (409) when `ifNoneMatch` and storage holds an object at the key (412), but for a
   *   content-addressed key; `CHECKSUM_MISMATCH` (409) when storage refused a checksum.
   */
  complete(upload: UploadRef, parts: CompletedPart[], size: number, options?: CompleteOptions): Promise<CompletedObject>;
  /**
   * AbortMultipartUpload, then ListParts to check that it is gone (aborting again while it is not: a part
   * under way may land after the first abort); an upload that no longer exists counts as aborted.
   */
  abort(upload: UploadRef): Promise<void>;
  /** PutObjectTagging: sets the object's tags (URL-encoded, `a=1&b=2`), replacing any it has. */
  tag(key: string, tagging: string): Promise<void>;
}

/** Parts asked for per ListParts page (S3's maximum). */
const LIST_PAGE_SIZE = 1000;

/** How many times `abort` checks (ListParts) that the upload is gone, aborting it again when it is not. */
const ABORT_CHECKS = 2;

interface StorageFailure {
  name?: string;
  Code?: string;
  $metadata?: { httpStatusCode?: number };
}

function failure(error: unknown): { code: string | undefined; status: number | undefined } {
  const { name, Code, $metadata } = (error ?? {}) as StorageFailure;
  return { code: Code ?? name, status: $metadata?.httpStatusCode };
}

/** A storage error's message (never sent to the browser: only read to classify it). */
const messageOf = (error: unknown): string => (error instanceof Error ? error.message : '');

/** An ETag as S3 sends it, in double quotes (radosgw answers a repeated complete with a bare one). */
const quoted = (etag: string) => (etag.startsWith('"') ? etag : `"${etag}"`);

/**
 * NoSuchUpload: the upload was completed or aborted. radosgw answers some calls on such an upload with 404
 * NoSuchKey instead; on an upload id, a 404 means nothing else.
 */
const isNoSuchUpload = (error: unknown) => failure(error).code === 'NoSuchUpload' || failure(error).status === 404;

function noSuchUpload(cause: unknown): UploadError {
  return new UploadError('NO_SUCH_UPLOAD', 'This multipart upload no longer exists (completed or aborted): start the upload again.', {
    cause,
  });
}

/**
 * The upload id in the text of a CreateMultipartUpload answer that storage sent (200) but the SDK could not
 * read (its XML parser failed: the SDK keeps the text as `$responseBodyText`): storage created that upload.
 */
function unreadUploadId(error: unknown): string | undefined {
  const text = (error as { $responseBodyText?: unknown } | undefined)?.$responseBodyText;
  if (failure(error).status !== 200 || typeof text !== 'string') return undefined;
  return /<UploadId>([^<]+)<\/UploadId>/.exec(text)?.[1];
}

/** SSE-C parameters of the SDK's commands, when a customer key is configured. */
function customerKey(settings: ResolvedStorageSettings) {
  const key = settings.sseCustomerKey;
  // The SDK accepts the key's bytes and base64-encodes them (and adds the MD5) itself.
  return key ? { SSECustomerAlgorithm: 'AES256', SSECustomerKey: key as unknown as string } : {};
}

/**
 * The server's multipart calls, on the handler's one `S3Client`. Storage errors propagate as they are (the
 * handler logs them and answers 500) except NoSuchUpload, answered 404 with our own text, and the ones
 * named on each method. Needs, for the server's credentials: `s3:PutObject` (create, complete),
 * `s3:AbortMultipartUpload`, `s3:ListMultipartUploadParts` (list-parts), `s3:GetObject` (HEAD after a lost
 * complete answer).
 */
export function createMultipartStorage(settings: ResolvedStorageSettings, client: S3Client): MultipartStorage {
  const Bucket = settings.bucket;
  const sse = customerKey(settings);
  const abort = async ({ key, uploadId }: UploadRef): Promise<void> => {
    const { AbortMultipartUploadCommand, ListPartsCommand } = await loadS3();
    const abortOnce = () =>
      client.send(new AbortMultipartUploadCommand({ Bucket, Key: key, UploadId: uploadId })).catch((error: unknown) => {
        if (!isNoSuchUpload(error)) throw error;
      });
    await abortOnce();
    // A part whose upload was still under way may be stored after the abort: S3 advises checking with
    // ListParts and aborting again (AbortMultipartUpload API reference). Storage that cannot list, or
    // refuses to, is left at the one abort that succeeded.
    for (let check = 0; check < ABORT_CHECKS; check += 1) {
      const remaining = await client
        .send(new ListPartsCommand({ Bucket, Key: key, UploadId: uploadId, MaxParts: 1 }))
        .then(() => true)
        .catch(() => false);
      if (!remaining) return;
      await abortOnce();
    }
  };
  return {
    async create(object) {
      const { CreateMultipartUploadCommand } = await loadS3();
      const { UploadId } = await client
        .send(
          new CreateMultipartUploadCommand({
            Bucket,
            Key: object.key,
            ContentType: object.contentType,
            CacheControl: OBJECT_CACHE_CONTROL,
            ContentDisposition: object.contentDisposition,
            Metadata: object.metadata,
            // Tags are set with the upload itself (the object is tagged as it completes), never by the browser.
            ...(object.tagging ? { Tagging: object.tagging } : {}),
            ...multipartCreateChecksum(object.checksum),
            ...sse,
          }),
        )
        .catch(async (error: unknown) => {
          // Storage created an upload whose answer could not be read: abort it, or its parts stay billed.
          const uploadId = unreadUploadId(error);
          if (uploadId) await abort({ key: object.key, uploadId }).catch(() => {});
          throw error;
        });
      if (!UploadId) throw new Error('CreateMultipartUpload answered without an UploadId.');
      return UploadId;
    },

    async listParts({ key, uploadId }) {
      const { ListPartsCommand } = await loadS3();
      const parts: StoredPart[] = [];
      let marker: string | undefined;
      for (let page = 0; page <= MAX_PARTS / LIST_PAGE_SIZE; page += 1) {
        const answer = await client
          .send(new ListPartsCommand({ Bucket, Key: key, UploadId: uploadId, MaxParts: LIST_PAGE_SIZE, PartNumberMarker: marker, ...sse }))
          .catch((error: unknown) => {
            if (isNoSuchUpload(error)) throw noSuchUpload(error);
            const { status } = failure(error);
            // s3rver answers 405 MethodNotAllowed; S3 names an unimplemented operation 501 NotImplemented.
            if (status === 405 || status === 501) {
              throw new UploadError('NOT_SUPPORTED', 'This storage cannot list the parts of an upload (ListParts): send every part again.', {
                cause: error,
              });
            }
            throw error;
          });
        for (const part of answer.Parts ?? []) {
          if (part.PartNumber !== undefined && part.ETag !== undefined) {
            parts.push({ partNumber: part.PartNumber, etag: part.ETag, size: part.Size ?? 0 });
          }
        }
        if (!answer.IsTruncated || answer.NextPartNumberMarker === undefined) return parts;
        marker = answer.NextPartNumberMarker;
      }
      return parts;
    },

    async complete({ key, uploadId }, parts, size, options = {}) {
      const { CompleteMultipartUploadCommand, HeadObjectCommand } = await loadS3();
      const algorithm = options.checksum;
      const head = () =>
        client
          .send(new HeadObjectCommand({ Bucket, Key: key, ...(algorithm && algorithm !== 'md5' ? { ChecksumMode: 'ENABLED' } : {}), ...sse }))
          .catch((error: unknown) => {
            if (failure(error).status === 404) return undefined;
            throw error;
          });
      /** The stored object's ETag when it is this upload's result (N parts, the declared size); HEAD. */
      const assembled = async (): Promise<CompletedObject | undefined> => {
        const stored = await head();
        if (!stored?.ETag?.endsWith(`-${parts.length}"`) || stored.ContentLength !== size) return undefined;
        return { etag: stored.ETag, ...(algorithm ? { checksum: reportedChecksum(stored, algorithm) } : {}) };
      };
      // A part's checksum field, for an algorithm S3 lists per part (not MD5: its ETag is its checksum).
      const partField = algorithm && algorithm !== 'md5' ? SDK_CHECKSUM_FIELDS[algorithm] : undefined;
      try {
        const answer = await client.send(
          new CompleteMultipartUploadCommand({
            Bucket,
            Key: key,
            UploadId: uploadId,
            MultipartUpload: {
              Parts: parts.map((part) => ({
                PartNumber: part.partNumber,
                ETag: part.etag,
                ...(partField && part.checksum !== undefined ? { [partField]: part.checksum } : {}),
              })),
            },
            ...(algorithm === 'crc64nvme' && options.objectChecksum !== undefined
              ? { ChecksumCRC64NVME: options.objectChecksum, ChecksumType: 'FULL_OBJECT' as const }
              : {}),
            ...((options.ifNoneMatch ?? settings.conditionalWrites) ? { IfNoneMatch: '*' } : {}),
            ...sse,
          }),
        );
        const checksum = algorithm ? reportedChecksum(answer, algorithm) : undefined;
        if (answer.ETag) return { etag: quoted(answer.ETag), ...(checksum === undefined ? {} : { checksum }) };
        // radosgw 16 answers an empty <ETag/>: the object's own ETag is in its HEAD.
        const completed = await assembled();
        if (!completed) throw new Error('CompleteMultipartUpload answered without an ETag, and HEAD found no object of this upload.');
        return completed;
      } catch (error) {
        const { code, status } = failure(error);
        if (status === 412 || code === 'PreconditionFailed') {
          const stored = options.contentAddressed ? await head() : undefined;
          if (stored?.ETag) {
            // Another upload stored these bytes under this content key first: this one is not needed.
            await abort({ key, uploadId }).catch(() => {});
            return { etag: quoted(stored.ETag), ...(algorithm ? { checksum: reportedChecksum(stored, algorithm) } : {}), alreadyStored: true };
          }
          throw new UploadError('OBJECT_EXISTS', 'An object already exists under this key (storage refuses to overwrite it).', { cause: error });
        }
        if (code === 'BadDigest' || code === 'InvalidDigest' || code === 'XAmzContentChecksumMismatch' || (code === 'InvalidRequest' && /checksum/i.test(messageOf(error)))) {
          throw new UploadError('CHECKSUM_MISMATCH', "The upload's checksum is not the one storage computed from its parts: the file changed while it was read, or was corrupted on the way.", {
            cause: error,
          });
        }
        if (code === 'InvalidPart' || code === 'InvalidPartOrder') {
          throw new UploadError('INVALID_PART', 'A part is missing on storage or its ETag is not the stored one: list the parts and send it again.', {
            cause: error,
          });
        }
        if (!isNoSuchUpload(error)) throw error;
        // A complete retried after its first answer was lost: storage has already assembled the object.
        const etag = await assembled();
        if (etag) return etag;
        throw noSuchUpload(error);
      }
    },

    abort,

    async tag(key, tagging) {
      const { PutObjectTaggingCommand } = await loadS3();
      const TagSet = [...new URLSearchParams(tagging)].map(([Key, Value]) => ({ Key, Value }));
      await client.send(new PutObjectTaggingCommand({ Bucket, Key: key, Tagging: { TagSet } }));
    },
  };
}
