/**
 * The temporary-token strategy's multipart upload: the browser signs its own storage requests with the
 * temporary credentials, through the {@link TokenSession} (which retries its own requests, renews the
 * credentials and corrects a skewed clock).
 */
import { isUploadClientError } from '../errors';
import type { MultipartBackend } from '../multipart-backend';
import type { MultipartStarter, OpenedUpload } from '../multipart-upload';
import type { ResumeRecord } from '../resume-journal';
import type { TokenSession } from './token/token-session';

/**
 * The part engine's requests of the multipart upload `uploadId`, signed by `session`. Signing is local, so
 * parts are signed one at a time: the engine signs each sender's next part while its current one is sent
 * (the session renews credentials expiring within 60 s before it signs, so a request signed ahead is sent
 * with credentials in force).
 */
export function tokenBackend(session: TokenSession, uploadId: string): MultipartBackend {
  return {
    signBatchSize: 1,
    signParts: (partNumbers, _signal, headers = {}) =>
      Promise.all(
        partNumbers.map(async (partNumber) => ({ partNumber, ...(await session.signUploadPart(uploadId, partNumber, headers[partNumber])) })),
      ),
    async complete(parts, signal) {
      await session.completeMultipartUpload(uploadId, parts, signal);
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
 * - create: credentials for a new key (unless a reopen already got some), then CreateMultipartUpload.
 * - reopen: credentials renewed with the record's ticket (a refusal means the record cannot continue),
 *   then ListParts; storage that cannot list (s3rver, or credentials without the right) leaves the
 *   journal as the record.
 */
export function tokenStarter(contentType: string, openSession: SessionOpener, signal: AbortSignal | undefined): TokenStarter {
  let session: TokenSession | undefined;
  return {
    strategy: 'temporary-token',
    get session() {
      return session;
    },
    async create(partSize): Promise<OpenedUpload> {
      const current = (session ??= await openSession());
      // Not cancelled in flight: see MultipartStarter.create.
      const uploadId = await current.createMultipartUpload(contentType, undefined);
      const { bucket, key, ticket = '', checksum } = current.prepared;
      return {
        backend: tokenBackend(current, uploadId),
        record: { bucket, key, uploadId, partSize, ticket, url: current.objectUrl, parts: [], checksum },
      };
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
      return { backend: tokenBackend(session, record.uploadId), record: { ...record, parts: stored ?? record.parts } };
    },
  };
}
