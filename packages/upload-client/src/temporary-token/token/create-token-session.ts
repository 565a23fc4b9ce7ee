/**
 * `createTokenSession`: the storage requests of one temporary-token upload, signed in the browser. It
 * replaces the AWS SDK's S3 client and `lib-storage` there: the SDK's SigV4 signer alone, WebCrypto for
 * its SHA-256, XHR for the requests, S3's XML read with two regular expressions.
 */
import { TOKEN_OBJECT_CACHE_CONTROL, type ChecksumAlgorithm, type StoredPart } from '@upbeam/upload-protocol';
import { UploadClientError } from '../../errors';
import { completionWatch } from '../../multipart-backend';
import { objectUrl } from '../../object-url';
import type { Recovery } from '../../recovery';
import { resolveRetrySettings } from '../../retry';
import { withRetries } from '../../send-loop';
import { isSuccess, parseS3Error, storageError, xmlElements, xmlValue, type StorageAnswer } from '../../s3-answer';
import { CLOCK_SKEW_THRESHOLD_MS, createClock, isClockSkewRefusal, storageTimeOf } from './clock';
import { createCredentialKeeper, expirationOf } from './credentials';
import { completeMultipartBody, taggingBody } from './s3-bodies';
import type { S3Checksum } from './checksum-s3';
import { sendWithXhr } from './send-with-xhr';
import { WebCryptoSha256 } from './sha256';
import { type RequestToSign, signRequest } from './sign-request';
import type { CompletedObject, SignedRequest, TokenSession, TokenSessionOptions } from './token-session';

/**
 * How long a signature is used after signing, in milliseconds: the clock-skew threshold (SPEC 9: 5
 * minutes). S3 accepts a request dated up to 15 minutes from its clock; signing again costs ~1 ms.
 */
export const MAX_SIGNATURE_AGE_MS = CLOCK_SKEW_THRESHOLD_MS;

/**
 * ListParts statuses that mean "cannot list here", not "no such upload": 403 (AWS needs
 * `s3:ListMultipartUploadParts`, which a one-key PutObject policy does not give), 405 and 501 (s3rver).
 */
const CANNOT_LIST_STATUSES: readonly number[] = [403, 405, 501];

/** A request the session sends itself: signed, with an XML body or none. */
interface SessionRequest extends RequestToSign {
  body?: string;
}

/**
 * The parts of one ListParts page. Their checksums are not read: a resumed upload hashes its stored parts again
 * for the Complete (the part engine hashes every part).
 */
function readParts(page: string): StoredPart[] {
  return xmlElements(page, 'Part').flatMap((part) => {
    const partNumber = Number(xmlValue(part, 'PartNumber'));
    const etag = xmlValue(part, 'ETag');
    const size = Number(xmlValue(part, 'Size'));
    return Number.isInteger(partNumber) && etag && Number.isFinite(size) ? [{ partNumber, etag, size }] : [];
  });
}

/**
 * An ETag in quotes, as S3 writes it in headers and in its XML (`&quot;…&quot;`); radosgw 16.2 leaves the
 * quotes out of CompleteMultipartUpload's answer. `undefined` stays so.
 */
function quoted(etag: string | undefined): string | undefined {
  return etag === undefined || /^".*"$/.test(etag) ? etag : `"${etag}"`;
}

/**
 * S3's names of `algorithm` in a multipart upload's requests (`checksum-s3`, loaded with `import()` beside the
 * part engine's checksum chunk, `checksum-parts`, which it starts too): `undefined` for MD5 (`Content-MD5`, the
 * ETag) or none.
 */
async function s3ChecksumOf(algorithm: ChecksumAlgorithm | undefined): Promise<S3Checksum | undefined> {
  if (!algorithm || algorithm === 'md5') return undefined;
  import('../../checksum-parts').catch(() => undefined);
  return (await import('./checksum-s3')).s3Checksum(algorithm);
}

/** Base64 of the SHA-256 of `text` (UTF-8): an `x-amz-checksum-sha256` header. */
async function sha256Base64(text: string): Promise<string> {
  const hash = new WebCryptoSha256();
  hash.update(text);
  return btoa(String.fromCharCode(...(await hash.digest())));
}

/**
 * Opens the storage requests of one temporary-token upload (`options.prepared`: its key, bucket, region,
 * endpoint and credentials). Nothing is sent until a method is called.
 *
 * Credentials: before each signature, credentials that expire within 60 seconds by the corrected clock
 * (SPEC 9: refresh window) are renewed with `options.renew` (one renewal at a time, shared). A failed
 * renewal is thrown only once the credentials in force have expired.
 *
 * Clock: corrected by the endpoint's `serverTime` when over 5 minutes off (SPEC 9: clock-skew threshold),
 * and by storage's time when it answers 403 `RequestTimeTooSkewed` ({@link TokenSession.recoveryFor}).
 *
 * Retries: the session's own requests (create, complete, abort, list, tagging) follow `options.retry`
 * (`withRetries`: the policy of every request of an upload); within an attempt, a refusal that signing
 * again cures (`RequestTimeTooSkewed`, `ExpiredToken`) is signed again and sent once more.
 *
 * @throws {@link UploadClientError} `INVALID_OPTIONS` when WebCrypto is missing: browsers give
 *   `crypto.subtle` only to secure contexts (https, localhost).
 *
 * @example
 * const session = createTokenSession({ prepared, renew: (ticket) => postRenew(ticket) });
 * const { url, headers } = await session.signPutObject(file.type);
 * // PUT `file` to `url` with `headers` (XHR, for upload progress).
 */
export function createTokenSession(options: TokenSessionOptions): TokenSession {
  if (!globalThis.crypto?.subtle) {
    throw new UploadClientError(
      'INVALID_OPTIONS',
      'The temporary-token strategy signs with WebCrypto (crypto.subtle), which browsers give only to secure contexts: serve the page over https (or from localhost).',
    );
  }
  const clock = createClock(options.now ?? Date.now);
  const keeper = createCredentialKeeper(options.prepared, options.renew, clock);
  const send = options.send ?? sendWithXhr;
  const retry = resolveRetrySettings(options.retry ?? {});
  const address = objectUrl(options.prepared);

  /** The object's headers on PutObject and CreateMultipartUpload, signed so that storage keeps them as set. */
  const objectHeaders = (contentType: string): Record<string, string> => {
    const { contentDisposition, metadata = {} } = keeper.current;
    const headers: Record<string, string> = { 'content-type': contentType, 'cache-control': TOKEN_OBJECT_CACHE_CONTROL };
    if (contentDisposition) headers['content-disposition'] = contentDisposition;
    for (const [name, value] of Object.entries(metadata)) headers[`x-amz-meta-${name.toLowerCase()}`] = value;
    return headers;
  };

  const sign = async (request: RequestToSign): Promise<SignedRequest> => {
    const prepared = await keeper.fresh();
    const signedAt = clock.now();
    const { url, headers } = await signRequest(request, prepared, new Date(signedAt));
    const expiration = expirationOf(prepared) ?? Number.POSITIVE_INFINITY;
    return { url, headers, expiresAt: clock.toBrowserTime(Math.min(expiration, signedAt + MAX_SIGNATURE_AGE_MS)) };
  };

  const recoveryFor = (answer: StorageAnswer): Recovery | undefined => {
    if (isClockSkewRefusal(answer)) {
      const storageTime = storageTimeOf(answer);
      if (storageTime !== undefined) clock.adopt(storageTime);
      // No readable time: the clock is set from the `serverTime` of a renewal made before the next signature.
      return storageTime !== undefined || keeper.requestRenewal({ clock: true }) ? 'correct-clock' : undefined;
    }
    const expired = parseS3Error(answer.body).code === 'ExpiredToken' && keeper.requestRenewal({ clock: false });
    return expired ? 'renew-credentials' : undefined;
  };

  /** Signs and sends `request`; a refusal that signing again cures is signed again and sent once more. */
  const exchange = async (request: SessionRequest, signal: AbortSignal | undefined): Promise<StorageAnswer> => {
    const signAndSend = async () => {
      const { url, headers } = await sign(request);
      return send({ method: request.method, url, headers, body: request.body, signal });
    };
    const answer = await signAndSend();
    if (isSuccess(answer) || !recoveryFor(answer)) return answer;
    return signAndSend();
  };

  const retrying = <T>(attempt: () => Promise<T>, signal: AbortSignal | undefined): Promise<T> =>
    withRetries(attempt, { ...retry, signal });

  return {
    get prepared() {
      return keeper.current;
    },
    objectUrl: address,
    recoveryFor,

    signPutObject: (contentType, headers = {}) => sign({ method: 'PUT', url: address, headers: { ...objectHeaders(contentType), ...headers } }),

    signUploadPart: (uploadId, partNumber, headers = {}) =>
      sign({ method: 'PUT', url: address, query: { partNumber: String(partNumber), uploadId }, headers }),

    createMultipartUpload: async (contentType, signal, checksum) => {
      const s3 = await s3ChecksumOf(checksum);
      return retrying(async () => {
        const headers = { ...objectHeaders(contentType), ...s3?.createHeaders };
        const request: SessionRequest = { method: 'POST', url: address, query: { uploads: '' }, headers };
        const answer = await exchange(request, signal);
        if (!isSuccess(answer)) throw storageError(answer);
        const uploadId = xmlValue(answer.body, 'UploadId');
        if (uploadId) return uploadId;
        throw new UploadClientError('STORAGE_ERROR', 'Storage answered CreateMultipartUpload without an UploadId.', {
          status: answer.status,
        });
      }, signal);
    },

    async listParts(uploadId, signal) {
      const parts: StoredPart[] = [];
      let marker: string | undefined;
      for (;;) {
        const query: Record<string, string> = marker ? { uploadId, 'part-number-marker': marker } : { uploadId };
        const page = await retrying(async () => {
          const answer = await exchange({ method: 'GET', url: address, query }, signal);
          if (isSuccess(answer)) return answer.body;
          if (CANNOT_LIST_STATUSES.includes(answer.status)) return undefined;
          throw storageError(answer);
        }, signal);
        if (page === undefined) return undefined;
        parts.push(...readParts(page));
        const next = xmlValue(page, 'IsTruncated') === 'true' ? xmlValue(page, 'NextPartNumberMarker') : undefined;
        if (!next || next === marker) return parts;
        marker = next;
      }
    },

    async completeMultipartUpload(uploadId, parts, signal, options = {}) {
      const { checksum: algorithm, objectChecksum, ifNoneMatch } = options;
      const s3 = await s3ChecksumOf(algorithm);
      const element = s3?.element;
      const headers: Record<string, string> = { 'content-type': 'application/xml' };
      // The whole object's CRC of a full-object upload: storage checks it against the one it combines.
      if (s3 && objectChecksum) headers[s3.header] = objectChecksum;
      if (ifNoneMatch) headers['if-none-match'] = '*';
      const request: SessionRequest = { method: 'POST', url: address, query: { uploadId }, headers, body: completeMultipartBody(parts, element) };
      // An attempt whose answer was lost completed the upload: its retry finds no such upload, or (with
      // If-None-Match) the object it stored.
      const watch = completionWatch(ifNoneMatch);
      const attempt = async (): Promise<CompletedObject> => {
        const answer = await exchange(request, signal);
        // S3 answers 200 at once and may report a failure later in the body.
        if (!isSuccess(answer) || /<Error>/.test(answer.body)) throw storageError(answer);
        return { etag: quoted(xmlValue(answer.body, 'ETag')), checksum: element && xmlValue(answer.body, element) };
      };
      const onRetry: typeof watch.onRetry = (event) => {
        retry.onRetry?.(event);
        watch.onRetry(event);
      };
      return withRetries(attempt, { ...retry, signal, onRetry }).catch((error: unknown): CompletedObject => {
        watch.settle(error);
        return { etag: undefined, checksum: undefined };
      });
    },

    abortMultipartUpload: (uploadId) =>
      retrying(async () => {
        const answer = await exchange({ method: 'DELETE', url: address, query: { uploadId } }, undefined);
        if (isSuccess(answer) || parseS3Error(answer.body).code === 'NoSuchUpload') return;
        throw storageError(answer);
      }, undefined),

    async putObjectTagging(tags, signal) {
      const body = taggingBody(tags);
      // S3 requires a checksum of PutObjectTagging's body: Content-MD5 (not in WebCrypto) or x-amz-checksum-*.
      const headers = { 'content-type': 'application/xml', 'x-amz-checksum-sha256': await sha256Base64(body) };
      await retrying(async () => {
        const answer = await exchange({ method: 'PUT', url: address, query: { tagging: '' }, headers, body }, signal);
        if (!isSuccess(answer)) throw storageError(answer);
      }, signal);
    },
  };
}
