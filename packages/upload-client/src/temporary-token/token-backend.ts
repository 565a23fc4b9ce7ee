/**
 * The temporary-token strategy's multipart upload: the browser signs its own storage requests with the
 * temporary credentials, through the {@link TokenSession} (which retries its own requests, renews the
 * credentials and corrects a skewed clock).
 */
import { MULTIPART_CHECKSUM_TYPES, type ChecksumAlgorithm, type CompletedPart, type ObjectChecksum } from '@upbeam/upload-protocol';
import { isUploadClientError } from '../errors';
import type { MultipartBackend } from '../multipart-backend';
import type { MultipartStarter, OpenedUpload } from '../multipart-upload';
import type { ResumeRecord } from '../resume-journal';
import type { TokenSession } from './token/token-session';

/** A {@link MultipartBackend} of the token session. */
export interface TokenBackend extends MultipartBackend {
  /**
   * Completes the upload: each part's checksum listed (`checksum`: the algorithm it was created with), the
   * whole object's sent for a `full-object` one (`objectChecksum`, CRC64NVME), `If-None-Match: *` when the
   * answer in force asks (`ifNoneMatch`).
   * @returns the object's checksum as storage reported it, else `objectChecksum` (the computed one).
   */
  complete(parts: CompletedPart[], signal: AbortSignal | undefined, objectChecksum?: ObjectChecksum): Promise<ObjectChecksum | undefined>;
}

/**
 * The object's checksum as storage reported it at completion (`reported`, base64; composite ones end in
 * `-N`), else the one computed from the parts. MD5 keeps the computed one: storage reports it as the ETag,
 * which is not an MD5 under SSE-KMS, and radosgw 16.2 leaves it out of its first answer.
 */
function storedChecksum(algorithm: ChecksumAlgorithm | undefined, reported: string | undefined, computed: ObjectChecksum | undefined): ObjectChecksum | undefined {
  if (!algorithm || algorithm === 'md5' || !reported) return computed;
  return { algorithm, type: MULTIPART_CHECKSUM_TYPES[algorithm], value: reported };
}

/**
 * The part engine's requests of the multipart upload `uploadId`, signed by `session`. Signing is local, so
 * parts are signed one at a time: the engine signs each sender's next part while its current one is sent
 * (the session renews credentials expiring within 60 s before it signs, so a request signed ahead is sent
 * with credentials in force). `headers` of a part (its `Content-MD5` or `x-amz-checksum-*`) are signed
 * with it. `checksum`: the algorithm the upload was created with (its Complete lists the parts' checksums).
 */
export function tokenBackend(session: TokenSession, uploadId: string, checksum?: ChecksumAlgorithm): TokenBackend {
  return {
    signBatchSize: 1,
    signParts: (partNumbers, _signal, headers = {}) =>
      Promise.all(
        partNumbers.map(async (partNumber) => ({ partNumber, ...(await session.signUploadPart(uploadId, partNumber, headers[partNumber])) })),
      ),
    async complete(parts, signal, objectChecksum) {
      const fullObject = objectChecksum?.type === 'full-object' ? objectChecksum.value : undefined;
      const ifNoneMatch = session.prepared.ifNoneMatch === true;
      const answered = await session.completeMultipartUpload(uploadId, parts, signal, { checksum, objectChecksum: fullObject, ifNoneMatch });
      return storedChecksum(checksum, answered.checksum, objectChecksum);
    },
    abort: () => session.abortMultipartUpload(uploadId),
    recoveryFor: session.recoveryFor,
  };
}

/** Opens a token session: on fresh credentials, or (`ticket`) on renewed ones for the key of that ticket. */
export type SessionOpener = (ticket?: string) => Promise<TokenSession>;

/** A {@link MultipartStarter} of the temporary-token strategy, and the session it opened (for tags, the URL). */
export interface TokenStarter extends MultipartStarter {
  readonly session: TokenSession | undefined;
}

/**
 * How the temporary-token strategy creates and reopens a multipart upload.
 * - create: credentials for a new key (unless a reopen already got some), then CreateMultipartUpload with
 *   the checksum algorithm: `checksum` (the client's option: `false` for none), else the answer's. The
 *   journal record keeps it, so that a resume sends the same.
 * - reopen: credentials renewed with the record's ticket (a refusal means the record cannot continue),
 *   then ListParts; storage that cannot list (s3rver, or credentials without the right) leaves the
 *   journal as the record.
 */
export function tokenStarter(
  contentType: string,
  openSession: SessionOpener,
  signal: AbortSignal | undefined,
  checksum?: ChecksumAlgorithm | false,
): TokenStarter {
  let session: TokenSession | undefined;
  return {
    strategy: 'temporary-token',
    get session() {
      return session;
    },
    async create(partSize): Promise<OpenedUpload> {
      const current = (session ??= await openSession());
      // The option wins (`false` too); unset, the server's answer decides (old servers ask for none).
      const algorithm = (checksum ?? current.prepared.checksum) || undefined;
      // Not cancelled in flight: see MultipartStarter.create.
      const uploadId = await current.createMultipartUpload(contentType, undefined, algorithm);
      const { bucket, key, ticket = '' } = current.prepared;
      const record = { bucket, key, uploadId, partSize, ticket, url: current.objectUrl, parts: [], checksum: algorithm };
      return { backend: tokenBackend(current, uploadId, algorithm), record };
    },
    async reopen(record: ResumeRecord): Promise<OpenedUpload | undefined> {
      try {
        session = await openSession(record.ticket);
      } catch (error) {
        // Refused (the ticket expired, or the server cannot renew): start afresh. No answer: fail.
        if (!isUploadClientError(error) || error.status === undefined || error.status >= 500) throw error;
        return undefined;
      }
      // A server that cannot renew prepares a new key: the kept upload cannot continue there (the new
      // credentials serve the fresh upload).
      if (session.prepared.key !== record.key) return undefined;
      let stored;
      try {
        stored = await session.listParts(record.uploadId, signal);
      } catch (error) {
        if (isUploadClientError(error) && error.status === 404) return undefined;
        throw error;
      }
      // Sizes kept: MultipartUpload sends again a part stored cut short (wholeParts).
      return { backend: tokenBackend(session, record.uploadId, record.checksum), record: { ...record, parts: stored ?? record.parts } };
    },
  };
}
