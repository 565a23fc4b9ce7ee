/**
 * The temporary-token strategy in the browser: the server hands out temporary credentials for one object
 * key, and the browser signs its own storage requests with them (no AWS SDK: SigV4 in `token/`, parts sent
 * by the same engine as the presigned strategy's). Loaded with `import()` on its first use, so that an app
 * that only uses presigned URLs never downloads it.
 */
import { UPLOAD_STRATEGIES, type TemporaryTokenUploadResponse, type UploadResult } from '@upbeam/upload-protocol';
import { UploadClientError } from './errors';
import { runMultipart, type MultipartStarter } from './multipart-run';
import { usesMultipart } from './multipart-threshold';
import { resolveMultipartSettings } from './part-math';
import { postToEndpoint } from './prepare';
import { isExpiredUrlError, putObjectAnswer, refusedByStorage } from './put-object';
import { retryDelay, withRetries } from './retry';
import { tokenBackend } from './token-backend';
import { createTokenSession, type TokenSession } from './token/index';
import type { UploadContext } from './types';

/** Fields of the temporary-token answer that the engine reads. */
const TOKEN_FIELDS = [
  'key',
  'bucket',
  'region',
  'token.Credentials.AccessKeyId',
  'token.Credentials.SecretAccessKey',
  'token.Credentials.SessionToken',
] as const;

const MARKER = { strategy: 'temporary-token' } as const;

/** Credentials for the upload: a new key, or (`ticket`) fresh ones for the key of an earlier answer. */
function prepare(upload: UploadContext, ticket?: string): Promise<TemporaryTokenUploadResponse> {
  const marker = ticket ? { ...MARKER, renew: { ticket } } : MARKER;
  return postToEndpoint<TemporaryTokenUploadResponse>(upload, { marker, fields: TOKEN_FIELDS });
}

/** A session on `prepared`, which renews its credentials through the endpoint when they near expiry. */
function openSession(upload: UploadContext, prepared: TemporaryTokenUploadResponse): TokenSession {
  return createTokenSession({ prepared, renew: (ticket) => prepare(upload, ticket), retry: upload.options });
}

/**
 * One signed PutObject of the whole file, retried; signed again at once when the signature expired or the
 * session repaired the refusal's cause (a skewed clock, expired credentials).
 */
async function putWholeFile(upload: UploadContext, session: TokenSession): Promise<void> {
  const { file, filetype, options } = upload;
  let signAgain = false;
  await withRetries(
    async () => {
      signAgain = false;
      const signed = await session.signPutObject(filetype);
      try {
        const xhr = await putObjectAnswer(signed.url, signed.headers, file, options.signal, upload.report);
        const refused = refusedByStorage(xhr);
        if (refused) {
          signAgain = session.recoverFrom({ status: xhr.status, body: xhr.responseText, headers: xhr.getAllResponseHeaders() });
          throw refused;
        }
      } catch (error) {
        signAgain ||= isExpiredUrlError(error, signed.expiresAt);
        throw error;
      }
    },
    options,
    (error, retryNumber) => (signAgain ? 0 : retryDelay(error, retryNumber)),
  );
}

/**
 * Checks the strategy (`uploadFile` sends every strategy but `presigned` here) and the multipart options
 * before any request; asks the endpoint for temporary credentials; sends the file (one PutObject below
 * `multipartThreshold`, else a multipart upload, resumed when `resume` kept one); sets the tags; then, when
 * the server limits the size (its answer holds a `receipt`), tells it the object is stored so that it
 * checks the size (`_upload.complete`; the server deletes an object that is too large).
 *
 * @returns `{ url, bucket, key }`, `url` the object's address (SPEC 7.4).
 * @throws as `uploadFile`.
 */
export async function uploadWithTemporaryToken(upload: UploadContext): Promise<UploadResult> {
  const { file, options } = upload;
  if (options.strategy !== 'temporary-token') {
    const got = String(options.strategy);
    throw new UploadClientError('INVALID_OPTIONS', `strategy must be one of: ${UPLOAD_STRATEGIES.join(', ')}. Got ${got}.`);
  }
  const settings = resolveMultipartSettings(file.size, options);
  let session: TokenSession | undefined;
  if (usesMultipart(file.size, settings.multipartThreshold)) {
    const starter: MultipartStarter = {
      strategy: 'temporary-token',
      async create(partSize) {
        session ??= openSession(upload, await prepare(upload));
        const current = session;
        const uploadId = await current.createMultipartUpload(upload.filetype, options.signal);
        const { bucket, key, ticket = '' } = current.prepared;
        return {
          backend: tokenBackend(current, uploadId),
          record: { bucket, key, uploadId, partSize, ticket, url: current.objectUrl, parts: [] },
        };
      },
      async reopen(record) {
        let prepared: TemporaryTokenUploadResponse;
        try {
          prepared = await prepare(upload, record.ticket);
        } catch (error) {
          // Refused (the ticket expired, or the server cannot renew): start afresh. No answer: fail.
          const { status } = error as { status?: number };
          if (status === undefined || status >= 500) throw error;
          return undefined;
        }
        session = openSession(upload, prepared);
        // A server that cannot renew prepares a new key: the kept upload cannot continue there (the new
        // credentials serve the fresh upload).
        if (prepared.key !== record.key) return undefined;
        const current = session;
        let stored;
        try {
          stored = await current.listParts(record.uploadId, options.signal);
        } catch (error) {
          if ((error as { status?: number }).status === 404) return undefined;
          throw error;
        }
        // Storage that cannot list parts (s3rver): the journal is the record.
        const parts = stored?.map(({ partNumber, etag }) => ({ partNumber, etag })) ?? record.parts;
        return { backend: tokenBackend(current, record.uploadId), record: { ...record, parts } };
      },
    };
    await runMultipart(upload, settings, starter);
  } else {
    session = openSession(upload, await prepare(upload));
    await putWholeFile(upload, session);
  }
  const done = session!;
  if (settings.tags.length > 0) await done.putObjectTagging(settings.tags, options.signal);
  // A server with a size limit checks the stored object now (storage cannot bind a size to credentials).
  const { key, bucket, receipt } = done.prepared;
  if (receipt) await postToEndpoint(upload, { marker: { ...MARKER, complete: { key, receipt } } });
  return { url: done.objectUrl, bucket, key };
}
