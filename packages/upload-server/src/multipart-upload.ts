import {
  MAX_PARTS_PER_SIGN_REQUEST,
  type AbortMultipartResponse,
  type CompletedPart,
  type CompleteMultipartResponse,
  type ListPartsResponse,
  type MultipartRequest,
  type SignedPart,
  type SignPartsResponse,
} from '@upbeam/upload-protocol';
import { UploadError } from './errors';
import type { MultipartObject, MultipartStorage } from './multipart-storage';
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
}

const isText = (value: unknown): value is string => typeof value === 'string' && value !== '';
const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value > 0;

function readTicketFields(fields: Record<string, unknown>): MultipartTicketFields | undefined {
  const { bucket, key, uploadId, contentType, filesize, partSize, partCount, tagging, context } = fields;
  if (!isText(bucket) || !isText(key) || !isText(uploadId) || !isText(contentType)) return undefined;
  if (!isCount(filesize) || !isCount(partSize) || !isCount(partCount)) return undefined;
  if ((tagging !== undefined && !isText(tagging)) || (context !== undefined && !isText(context))) return undefined;
  return {
    ...{ bucket, key, uploadId, contentType, filesize, partSize, partCount },
    ...(tagging === undefined ? {} : { tagging }),
    ...(context === undefined ? {} : { context }),
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
}

/** A new multipart upload: the object (key and headers, decided and checked by the handler) and its plan. */
export interface MultipartCreateInput extends MultipartObject {
  /** Declared size of the file, in bytes; required. */
  filesize: number | undefined;
  /** Size of every part but the last, in bytes. */
  partSize: number;
  /** The route's context for `onUploadComplete` (JSON text), signed into the ticket. */
  context?: string | undefined;
}

/** The answer to `create`, without the fields every preparation answer has (key, bucket, region, endpoint). */
export interface CreatedMultipart {
  uploadId: string;
  partSize: number;
  ticket: string;
  ticketExpiresAt: string;
  /** Parts 1 to at most {@link MAX_PARTS_PER_SIGN_REQUEST}, signed with the upload (no `sign-parts` for them). */
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

/** Signs the UploadPart URLs of `partNumbers` of `upload`, each for its exact size in the plan. */
function signParts(deps: MultipartDependencies, upload: PartPlan & { key: string; uploadId: string }, partNumbers: number[]): Promise<SignedPart[]> {
  return Promise.all(
    partNumbers.map((partNumber) =>
      deps.presignPart({ key: upload.key, uploadId: upload.uploadId, partNumber, contentLength: partSizeOf(upload, partNumber), expiresIn: deps.expiresIn }),
    ),
  );
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
      const uploadId = await deps.storage.create(input);
      try {
        const first = Array.from({ length: Math.min(plan.partCount, MAX_PARTS_PER_SIGN_REQUEST) }, (_, index) => index + 1);
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
          // Every number is checked against the plan before anything is signed.
          for (const partNumber of wanted) partSizeOf(upload, partNumber);
          return { parts: await signParts(deps, upload, wanted) };
        }
        case 'list-parts':
          return { parts: await deps.storage.listParts(upload) };
        case 'complete': {
          const parts = completeParts(request.parts, upload.partCount);
          const etag = await deps.storage.complete(upload, parts, upload.filesize);
          // CreateMultipartUpload sent the tags; storage that ignores them there (radosgw 16.2, measured)
          // gets them now, with the server's credentials.
          if (upload.tagging) await deps.storage.tag(upload.key, upload.tagging);
          return { key: upload.key, etag };
        }
        case 'abort':
          await deps.storage.abort(upload);
          return { aborted: true };
      }
    },
  };
}
