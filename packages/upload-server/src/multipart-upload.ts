import {
  MAX_PARTS_PER_SIGN_REQUEST,
  type AbortMultipartResponse,
  type CompletedPart,
  type CompleteMultipartResponse,
  type ListPartsResponse,
  type MultipartRequest,
  type SignedPart,
  type SignPartsResponse,
  type ChecksumAlgorithm,
  type ChecksumRequest,
} from '@upbeam/upload-protocol';
import { UploadError } from './errors';
import type { MultipartObject, MultipartStorage } from './multipart-storage';
import { isChecksumAlgorithm, isPartChecksum, objectChecksum, checksumValueParts } from './upload-checksum';
import { partSizeOf, planParts, type PartPlan } from './multipart-plan';
import type { PartPresigner } from './part-presign';
import { createTickets, type Tickets } from './ticket';

/**
 * What a multipart ticket binds: the upload on storage (bucket, key, upload id) and how its parts are cut
 * (file size, part size), and the content type it was created with.
 */
export interface MultipartTicketFields extends PartPlan {
  bucket: string;
  key: string;
  uploadId: string;
  contentType: string;
  /** The tags the completed object gets (URL-encoded, as `x-amz-tagging`); absent: none. */
  tagging?: string;
  /** The route's context for `onUploadComplete`, as JSON text (`upload-context.ts`); absent: none. */
  context?: string;
  /** The algorithm every part carries, signed into its URL (`sign-parts` `checksums`); absent: none (older tickets too). */
  checksum?: ChecksumAlgorithm;
  /**
   * The object's checksum the upload was prepared with (a content-addressed key is named from it): the stored
   * object must have it; absent: none.
   */
  checksumValue?: string;
}

const isText = (value: unknown): value is string => typeof value === 'string' && value !== '';
const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value > 0;

function readTicketFields(fields: Record<string, unknown>): MultipartTicketFields | undefined {
  const { bucket, key, uploadId, contentType, filesize, partSize, partCount, tagging, context, checksum, checksumValue } = fields;
  if (!isText(bucket) || !isText(key) || !isText(uploadId) || !isText(contentType)) return undefined;
  if (!isCount(filesize) || !isCount(partSize) || !isCount(partCount)) return undefined;
  if ((tagging !== undefined && !isText(tagging)) || (context !== undefined && !isText(context))) return undefined;
  // Tickets issued before checksums have neither field: read as uploads without one.
  if (checksum !== undefined && !isChecksumAlgorithm(checksum)) return undefined;
  if (checksumValue !== undefined && (checksum === undefined || !isText(checksumValue) || !checksumValueParts(checksum, checksumValue))) return undefined;
  return {
    ...{ bucket, key, uploadId, contentType, filesize, partSize, partCount },
    ...(tagging === undefined ? {} : { tagging }),
    ...(context === undefined ? {} : { context }),
    ...(checksum === undefined ? {} : { checksum }),
    ...(checksumValue === undefined ? {} : { checksumValue }),
  };
}

/**
 * Multipart tickets signed with a key derived from the server's secret access key and the handler's `scope`
 * (`handlerScope`): another handler refuses them.
 */
export function createMultipartTickets(
  secretAccessKey: string,
  options: { scope: string; now?: (() => number) | undefined },
): Tickets<MultipartTicketFields> {
  return createTickets(secretAccessKey, 'multipart', readTicketFields, options);
}

/** What the multipart operations need from the handler. */
export interface MultipartDependencies {
  bucket: string;
  storage: MultipartStorage;
  presignPart: PartPresigner;
  tickets: Tickets<MultipartTicketFields>;
  /** Lifetime of each UploadPart URL, in seconds. */
  expiresIn: number;
  /**
   * Whether CompleteMultipartUpload sends `IfNoneMatch: '*'` (storage refuses to overwrite an object).
   * @default the storage settings' `conditionalWrites`
   */
  conditionalWrites?: boolean | undefined;
}

/** A new multipart upload: the object (key and headers, decided and checked by the handler) and its plan. */
export interface MultipartCreateInput extends MultipartObject {
  /** Declared size of the file, in bytes; required. */
  filesize: number | undefined;
  /** Size of every part but the last, in bytes. */
  partSize: number;
  /** The route's context for `onUploadComplete` (JSON text), signed into the ticket. */
  context?: string | undefined;
  /**
   * The upload's checksum (its algorithm is bound into the ticket; each part must then be signed with its own
   * checksum, so no part is signed with the upload). A `value`: the object's checksum of a content-addressed
   * key, which the stored object must have.
   */
  checksumRequest?: ChecksumRequest | undefined;
  /** A content-addressed key: a 412 to the completion means another upload stored these bytes first. */
  contentAddressed?: boolean | undefined;
}

/** The answer to `create`, without the fields every preparation answer has (key, bucket, region, endpoint). */
export interface CreatedMultipart {
  uploadId: string;
  partSize: number;
  ticket: string;
  ticketExpiresAt: string;
  /**
   * Parts 1 to at most {@link MAX_PARTS_PER_SIGN_REQUEST}, signed with the upload (no `sign-parts` for them);
   * none when the upload has a checksum (each part's URL signs its checksum: `sign-parts` with `checksums`).
   */
  parts: SignedPart[];
}

type TicketedRequest = Exclude<MultipartRequest, { action: 'create' }>;
type OperationAnswer = SignPartsResponse | ListPartsResponse | CompleteMultipartResponse | AbortMultipartResponse;

/** The presigned multipart operations of one handler. */
export interface MultipartOperations {
  /** CreateMultipartUpload, a ticket for it, and its first parts' UploadPart URLs. */
  create(input: MultipartCreateInput): Promise<CreatedMultipart>;
  /** `sign-parts`, `list-parts`, `complete`, `abort`: on the upload named by the request's ticket only. */
  continue(request: TicketedRequest): Promise<OperationAnswer>;
}

/**
 * Checks that `parts` are exactly parts 1 to `partCount`, once each, and returns them sorted.
 * @throws {@link UploadError} `INVALID_REQUEST` (400) naming the first missing or extra part.
 */
export function completeParts(parts: CompletedPart[], partCount: number): CompletedPart[] {
  const sorted = [...parts].sort((a, b) => a.partNumber - b.partNumber);
  sorted.forEach((part, index) => {
    if (part.partNumber !== index + 1) {
      const problem = part.partNumber < index + 1 ? `part ${part.partNumber} is listed twice` : `part ${index + 1} is missing`;
      throw new UploadError('INVALID_REQUEST', `"parts" must list parts 1 to ${partCount} once each: ${problem}.`);
    }
  });
  if (sorted.length !== partCount) {
    const problem = sorted.length < partCount ? `part ${sorted.length + 1} is missing` : `part ${partCount + 1} does not exist`;
    throw new UploadError('INVALID_REQUEST', `"parts" must list parts 1 to ${partCount} once each: ${problem}.`);
  }
  return sorted;
}

/**
 * Signs the UploadPart URLs of `partNumbers` of `upload`, each for its exact size in the plan and, with the
 * upload's algorithm, its checksum (`checksums`, by part number).
 */
function signParts(
  deps: MultipartDependencies,
  upload: PartPlan & { key: string; uploadId: string; checksum?: ChecksumAlgorithm | undefined },
  partNumbers: number[],
  checksums?: ReadonlyMap<number, string>,
): Promise<SignedPart[]> {
  return Promise.all(
    partNumbers.map((partNumber) => {
      const value = checksums?.get(partNumber);
      return deps.presignPart({
        key: upload.key,
        uploadId: upload.uploadId,
        partNumber,
        contentLength: partSizeOf(upload, partNumber),
        expiresIn: deps.expiresIn,
        ...(upload.checksum && value !== undefined ? { checksum: { algorithm: upload.checksum, value } } : {}),
      });
    }),
  );
}

/**
 * The checksum of each part a `sign-parts` names, checked against the upload's algorithm.
 * @throws {@link UploadError} `INVALID_CHECKSUM` (400): checksums missing for an upload with an algorithm, given
 *   for one without, or not base64 of a digest of its length.
 */
function partChecksums(algorithm: ChecksumAlgorithm | undefined, partNumbers: number[], checksums: string[] | undefined): Map<number, string> | undefined {
  if (algorithm === undefined) {
    if (checksums !== undefined) throw new UploadError('INVALID_CHECKSUM', 'This multipart upload was created without a checksum: sign its parts without "checksums".');
    return undefined;
  }
  if (checksums === undefined || checksums.length !== partNumbers.length) {
    throw new UploadError('INVALID_CHECKSUM', `This multipart upload carries ${algorithm} checksums: "checksums" must hold each part's, in the order of "partNumbers".`);
  }
  const byPart = new Map<number, string>();
  partNumbers.forEach((partNumber, index) => {
    const value = checksums[index];
    if (!isPartChecksum(algorithm, value)) throw new UploadError('INVALID_CHECKSUM', `The checksum of part ${partNumber} is not base64 of a ${algorithm} digest.`);
    byPart.set(partNumber, value);
  });
  return byPart;
}

/**
 * The completed object's checksum in the answer: storage's report of the upload's algorithm, or, for MD5, the
 * ETag (`{md5 of the part MD5s}-{N}`, when storage made it so).
 */
function completedChecksum(algorithm: ChecksumAlgorithm | undefined, reported: string | undefined, etag: string) {
  if (algorithm === 'md5') {
    const value = etag.replaceAll('"', '');
    return /^[0-9a-f]{32}-\d+$/.test(value) ? { algorithm, type: 'composite' as const, value } : undefined;
  }
  return algorithm === undefined || reported === undefined ? undefined : objectChecksum(algorithm, reported);
}

/**
 * The presigned multipart upload, stateless: `create` starts it on storage, issues a ticket
 * ({@link MultipartTicketFields}, HMAC-signed, 24 hours) and signs the first batch of parts (the browser
 * starts them without another request, as the AWS SDK's and Uppy's uploaders cannot); every later operation acts only on the upload its
 * ticket names, so no client can sign parts for, list, complete or abort an upload of another key.
 *
 * Size: each UploadPart URL signs its part's exact Content-Length (the plan in the ticket) and part numbers
 * beyond the plan are refused, so storage enforces the declared total size; `maxFileSize` is checked
 * against `filesize` before `create` (by the handler). `complete` requires exactly parts 1 to N.
 */
export function createMultipartOperations(deps: MultipartDependencies): MultipartOperations {
  return {
    async create(input) {
      if (input.filesize === undefined) {
        throw new UploadError('INVALID_REQUEST', '"filesize" (bytes) is required for a multipart upload.');
      }
      const plan = planParts(input.filesize, input.partSize);
      const checksum = input.checksumRequest?.algorithm;
      const uploadId = await deps.storage.create({ ...input, checksum });
      try {
        // With a checksum, each part's URL signs its own: the browser signs parts with them (`sign-parts`).
        const first = checksum ? [] : Array.from({ length: Math.min(plan.partCount, MAX_PARTS_PER_SIGN_REQUEST) }, (_, index) => index + 1);
        const parts = signParts(deps, { ...plan, key: input.key, uploadId }, first);
        // Awaited below; a failure of the ticket first must not leave this one unhandled.
        parts.catch(() => {});
        const { ticket, expiresAt } = await deps.tickets.issue({
          bucket: deps.bucket,
          key: input.key,
          uploadId,
          contentType: input.contentType,
          ...plan,
          ...(input.tagging ? { tagging: input.tagging } : {}),
          ...(input.context === undefined ? {} : { context: input.context }),
          ...(checksum === undefined ? {} : { checksum }),
          // Only a content-addressed key binds the value (its name); elsewhere storage's own report is the checksum.
          ...(input.contentAddressed && input.checksumRequest?.value !== undefined ? { checksumValue: input.checksumRequest.value } : {}),
        });
        return { uploadId, partSize: plan.partSize, ticket, ticketExpiresAt: expiresAt.toISOString(), parts: await parts };
      } catch (error) {
        // No browser will ever hold a ticket for this upload: abort it, or its parts stay billed.
        await deps.storage.abort({ key: input.key, uploadId }).catch(() => {});
        throw error;
      }
    },

    async continue(request) {
      const upload = await deps.tickets.verify(request.ticket);
      if (upload.bucket !== deps.bucket) {
        throw new UploadError('INVALID_TICKET', 'The upload ticket is not valid: start the upload again.');
      }
      switch (request.action) {
        case 'sign-parts': {
          const wanted = [...new Set(request.partNumbers)];
          // Every number (and checksum) is checked against the plan before anything is signed.
          for (const partNumber of wanted) partSizeOf(upload, partNumber);
          const checksums = partChecksums(upload.checksum, request.partNumbers, request.checksums);
          return { parts: await signParts(deps, upload, wanted, checksums) };
        }
        case 'list-parts':
          return { parts: await deps.storage.listParts(upload) };
        case 'complete': {
          const parts = completeParts(request.parts, upload.partCount);
          const algorithm = upload.checksum;
          if (algorithm !== undefined && algorithm !== 'md5') {
            const wrong = parts.find((part) => !isPartChecksum(algorithm, part.checksum));
            if (wrong) throw new UploadError('INVALID_CHECKSUM', `Part ${wrong.partNumber} must list its ${algorithm} checksum ("checksum", base64), as it was signed.`);
          }
          if (request.checksum !== undefined && (algorithm !== 'crc64nvme' || !isPartChecksum(algorithm, request.checksum))) {
            throw new UploadError('INVALID_CHECKSUM', '"checksum" is the whole object\'s CRC64NVME (base64), for an upload created with that algorithm only.');
          }
          const completed = await deps.storage.complete(upload, parts, upload.filesize, {
            checksum: algorithm,
            objectChecksum: request.checksum,
            ifNoneMatch: deps.conditionalWrites,
            contentAddressed: upload.checksumValue !== undefined,
          });
          // CreateMultipartUpload sent the tags; storage that ignores them there (radosgw 16.2, measured)
          // gets them now, with the server's credentials (not on an object another upload stored).
          if (upload.tagging && !completed.alreadyStored) await deps.storage.tag(upload.key, upload.tagging);
          const checksum = completedChecksum(algorithm, completed.checksum, completed.etag);
          return { key: upload.key, etag: completed.etag, ...(checksum ? { checksum } : {}), ...(completed.alreadyStored ? { alreadyStored: true } : {}) };
        }
        case 'abort':
          await deps.storage.abort(upload);
          return { aborted: true };
      }
    },
  };
}
