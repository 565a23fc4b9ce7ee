/**
 * The presigned strategy's multipart upload: the preparation endpoint creates it, signs its UploadPart
 * URLs in batches, lists, completes and aborts it (`_upload.multipart`), each operation on the upload
 * named by the HMAC `ticket` the server issued at `create`.
 */
import {
  CHECKSUM_HEADERS,
  MAX_PARTS_PER_SIGN_REQUEST,
  type ChecksumRequest,
  type ObjectChecksum,
  type CompletedPart,
  type CompleteMultipartResponse,
  type ListPartsResponse,
  type MultipartRequest,
  type MultipartUploadResponse,
  type SignedPart,
  type SignPartsResponse,
} from '@upbeam/upload-protocol';
import { isUploadClientError, UploadClientError } from '../errors';
import { completionWatch, type MultipartBackend, type PartHeaders, type SignedPartRequest } from '../multipart-backend';
import type { MultipartStarter, OpenedUpload } from '../multipart-upload';
import { postToEndpoint, type EndpointCall } from '../prepare';
import { partRanges } from '../part-math';
import { askCreate } from './create-ahead';
import { presignedUrlExpiry } from '../put-object';
import { learnChecksum, routeChecksum } from '../route-checksum';
import type { ResumeRecord } from '../resume-journal';
import type { UploadContext } from '../types';

/**
 * Thrown by `create` when the route is content-addressed and storage already holds the file's bytes (the answer
 * said `alreadyStored`): nothing was created, nothing is to send. `uploadPresignedMultipart` reports it complete.
 */
export class AlreadyStored {
  constructor(
    readonly answer: MultipartUploadResponse,
    readonly checksum: ObjectChecksum,
  ) {}
}

/** Endpoint codes that mean a kept upload cannot be continued: gone, or its ticket no longer valid. */
const GONE_CODES = ['NO_SUCH_UPLOAD', 'INVALID_TICKET', 'TICKET_EXPIRED'];

/** One multipart operation through the endpoint. */
function operate<T>(upload: UploadContext, multipart: MultipartRequest, extra: Omit<EndpointCall, 'marker'> = {}): Promise<T> {
  return postToEndpoint<T>(upload, { ...extra, marker: { strategy: 'presigned', multipart } });
}

/** The endpoint's signed parts as the engine sends them: their headers (none: `{}`) and their URL's expiry. */
const signedRequests = (parts: SignedPart[]): SignedPartRequest[] =>
  parts.map((part) => ({ ...part, headers: part.headers ?? {}, expiresAt: presignedUrlExpiry(part.url) }));

/** Where the `complete` answer's `serverData` is put (what the server's completion hook returned). */
export interface CompletionAnswer {
  serverData?: unknown;
}

/** The value of the one checksum header of each part, in the order of `partNumbers`; `undefined` without. */
function checksumsOf(partNumbers: number[], headers: PartHeaders | undefined): string[] | undefined {
  const names = Object.values(CHECKSUM_HEADERS);
  const values = partNumbers.map((partNumber) => Object.entries(headers?.[partNumber] ?? {}).find(([name]) => names.includes(name.toLowerCase()))?.[1]);
  return values.every((value) => value !== undefined) ? (values as string[]) : undefined;
}

/**
 * The part engine's requests of the presigned multipart upload with this ticket; `completed` receives the
 * `complete` answer's `serverData`.
 */
export function presignedBackend(upload: UploadContext, ticket: string, completed: CompletionAnswer = {}): MultipartBackend {
  return {
    signBatchSize: MAX_PARTS_PER_SIGN_REQUEST,
    async signParts(partNumbers, signal, headers) {
      // Each part's checksum, signed into its URL (the part's `headers` hold it then).
      const checksums = checksumsOf(partNumbers, headers);
      const { parts } = await operate<SignPartsResponse>(upload, { action: 'sign-parts', ticket, partNumbers, ...(checksums && { checksums }) }, { signal });
      return signedRequests(parts);
    },
    async complete(parts: CompletedPart[], signal, checksum?: ObjectChecksum) {
      const watch = completionWatch();
      // A full-object checksum (CRC-64/NVME) goes with the parts: storage checks it against theirs.
      const whole = checksum?.type === 'full-object' ? { checksum: checksum.value } : {};
      try {
        const answer = await operate<CompleteMultipartResponse>(upload, { action: 'complete', ticket, parts, ...whole }, { signal, onRetry: watch.onRetry });
        completed.serverData = answer.serverData;
        return answer.checksum;
      } catch (error) {
        watch.settle(error);
        return undefined;
      }
    },
    async abort() {
      // No signal: the abort of a cancelled upload must still reach the server.
      await operate(upload, { action: 'abort', ticket }, { signal: undefined });
    },
  };
}

/**
 * How the presigned strategy creates and reopens a multipart upload; `completed` as {@link presignedBackend}'s.
 * `ahead`: the answer of the `create` that `uploadFile` sent while this chunk loaded (`createAhead`), taken by the
 * first `create` in place of its own request.
 */
export function presignedStarter(upload: UploadContext, completed: CompletionAnswer, ahead?: Promise<MultipartUploadResponse>): MultipartStarter {
  return {
    strategy: 'presigned',
    async create(partSize) {
      const ask = (checksum: ChecksumRequest | false | undefined) => askCreate(upload, partSize, checksum);
      // The option's algorithm; else the answer says the route's (and the upload is created with it).
      const algorithm = upload.options.checksum;
      const sent = ahead;
      ahead = undefined;
      let created: MultipartUploadResponse;
      try {
        created = await (sent ?? ask(algorithm && { algorithm }));
      } catch (error) {
        // A content-addressed route names the key from the whole upload's checksum (composite, `-N`): every part
        // is hashed first (and again as it is sent), then asked again, once.
        const required = isUploadClientError(error) && error.answerCode === 'CHECKSUM_REQUIRED' && routeChecksum(upload);
        if (!required) throw error;
        const { file } = upload;
        const { PartChecksums } = await import('../checksum-parts');
        const whole = await new PartChecksums(file, partRanges(file.size, partSize), 0, required).objectChecksum();
        created = await ask({ algorithm: required, value: whole.value });
        if (created.alreadyStored) throw new AlreadyStored(created, whole);
      }
      if (!created.uploadId || !created.ticket) throw new UploadClientError('INVALID_PREPARE_RESPONSE', 'Upload endpoint answered without uploadId, ticket.');
      learnChecksum(upload, created.checksum);
      // The first parts signed with the upload (servers since `parts` was added): no `sign-parts` for them;
      // none with a checksum (each part's is signed into its URL once hashed).
      const signed = Array.isArray(created.parts) && !created.checksum ? signedRequests(created.parts) : [];
      const record: ResumeRecord = {
        // The object's address: a part URL without its query (else the engine's first signed part gives it).
        ...(signed[0] && { url: signed[0].url.split('?')[0] }),
        bucket: created.bucket,
        key: created.key,
        uploadId: created.uploadId,
        partSize: created.partSize,
        ticket: created.ticket,
        ticketExpiresAt: Date.parse(created.ticketExpiresAt),
        parts: [],
        checksum: created.checksum,
      };
      return { backend: presignedBackend(upload, created.ticket, completed), record, signed };
    },
    async reopen(record): Promise<OpenedUpload | undefined> {
      // A minute of margin: the ticket must outlive the request that uses it.
      if ((record.ticketExpiresAt ?? Number.POSITIVE_INFINITY) < Date.now() + 60_000) return undefined;
      let stored = record.parts;
      try {
        ({ parts: stored } = await operate<ListPartsResponse>(upload, { action: 'list-parts', ticket: record.ticket }));
      } catch (error) {
        const answerCode = isUploadClientError(error) ? error.answerCode : undefined;
        if (GONE_CODES.includes(answerCode ?? '')) return undefined;
        // 501 NOT_SUPPORTED: storage has no ListParts (s3rver); the journal is the record.
        if (answerCode !== 'NOT_SUPPORTED') throw error;
      }
      // Sizes kept: MultipartUpload sends again a part stored cut short (wholeParts).
      return { backend: presignedBackend(upload, record.ticket, completed), record: { ...record, parts: stored } };
    },
  };
}
