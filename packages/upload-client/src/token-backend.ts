/**
 * The temporary-token strategy's multipart upload: the browser signs its own storage requests with the
 * temporary credentials, through the {@link TokenSession} (which retries its own requests, renews the
 * credentials and corrects a skewed clock).
 */
import type { MultipartBackend } from './multipart-backend';
import type { TokenSession } from './token/token-session';

/**
 * The part engine's requests of the multipart upload `uploadId`, signed by `session`. Signing is local, so
 * parts are signed one at a time, just before they are sent (with the credentials in force then).
 */
export function tokenBackend(session: TokenSession, uploadId: string): MultipartBackend {
  return {
    signBatchSize: 1,
    signParts: (partNumbers) =>
      Promise.all(partNumbers.map(async (partNumber) => ({ partNumber, ...(await session.signUploadPart(uploadId, partNumber)) }))),
    async complete(parts, signal) {
      await session.completeMultipartUpload(uploadId, parts, signal);
    },
    abort: () => session.abortMultipartUpload(uploadId),
    recoverFrom: (answer) => session.recoverFrom(answer),
  };
}
