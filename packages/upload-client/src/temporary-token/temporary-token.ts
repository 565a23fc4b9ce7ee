/**
 * The temporary-token strategy in the browser: the server hands out temporary credentials for one object
 * key, and the browser signs its own storage requests with them (no AWS SDK: SigV4 in `token/`, parts sent
 * by the same engine as the presigned strategy's). Loaded with `import()` on its first use, so that an app
 * that only uses presigned URLs never downloads it.
 */
import { UPLOAD_STRATEGIES, type ObjectChecksum, type TemporaryTokenUploadResponse, type UploadResult } from '@upbeam/upload-protocol';
import { CHECKSUM_REFUSALS } from '../checksum-refusal';
import { reportCompletion } from '../complete-upload';
import { UploadClientError } from '../errors';
import { MultipartUpload } from '../multipart-upload';
import { usesMultipart } from '../multipart-threshold';
import { resolveMultipartSettings } from '../part-math';
import { attemptWatch } from '../recovery';
import { putWholeFile } from '../single-put';
import { singlePutChecksum } from '../single-put-checksum';
import { prepareToken } from './prepare-token';
import { tokenStarter, type SessionOpener, type TokenStarter } from './token-backend';
import { createTokenSession, type TokenSession } from './token/index';
import type { UploadContext } from '../types';

/** A token session on the credentials of `prepared`, renewed through the endpoint. */
function sessionOn(upload: UploadContext, prepared: TemporaryTokenUploadResponse): TokenSession {
  return createTokenSession({ prepared, renew: (renewal) => prepareToken(upload, renewal), retry: upload.options });
}

/**
 * Opens token sessions for this upload: fresh credentials from the endpoint, or (`ticket`) renewed ones for
 * the key of an earlier answer; the session renews its credentials through the endpoint too.
 */
function tokenSessionOpener(upload: UploadContext): SessionOpener {
  return async (ticket) => sessionOn(upload, await prepareToken(upload, ticket));
}

/**
 * How this upload creates and reopens a multipart upload with temporary credentials (cancelled by its
 * signal), with the checksum of its `checksum` option, else of the server's answer.
 */
export function tokenStarterFor(upload: UploadContext): TokenStarter {
  return tokenStarter(upload.filetype, tokenSessionOpener(upload), upload.options.signal, upload.options.checksum);
}

/** `If-None-Match: *` when the answer in force asks for it (storage then refuses to overwrite the key). */
const conditionalHeaders = (session: TokenSession): Record<string, string> => (session.prepared.ifNoneMatch ? { 'if-none-match': '*' } : {});

/**
 * The single PUT with temporary credentials: the file hashed first when a checksum is asked (the option wins,
 * `false` too; unset, the answer's: old servers ask for none), its header signed with the request (SigV4 in
 * headers, as the AWS SDK signs it), and `If-None-Match: *` when the answer asks. A body storage refuses for
 * its checksum is hashed again (a fresh slice: not the digest kept for the file) and sent once more.
 * - 412 to `If-None-Match: *`: stored when an earlier attempt got no answer (it wrote the object); else final,
 *   "An object already exists under this key (storage refuses to overwrite it)."
 * @returns the object's checksum (`full-object`), as storage verified it; `undefined` without one.
 */
async function putObjectWithToken(upload: UploadContext, session: TokenSession): Promise<ObjectChecksum | undefined> {
  const { file, options } = upload;
  const algorithm = options.checksum ?? session.prepared.checksum;
  let hashed = await singlePutChecksum(file, algorithm);
  // A 412 to If-None-Match: * (sent when the answer asks), by the one rule of a lost answer.
  const watch = attemptWatch(!!session.prepared.ifNoneMatch);
  await putWholeFile(
    upload,
    async (_fresh, rehash) => {
      if (rehash) hashed = await singlePutChecksum(file.slice(), algorithm);
      return session.signPutObject(upload.filetype, { ...hashed.headers, ...conditionalHeaders(session) });
    },
    session.recoveryFor,
    watch.onRetry,
    CHECKSUM_REFUSALS,
  ).catch(watch.settle);
  return hashed.checksum;
}

/**
 * Checks the strategy (`uploadFile` sends every strategy but `presigned` here) and, for a multipart upload,
 * the multipart options, before any request; asks the endpoint for temporary credentials (a single PUT's
 * may come as `prepared`: `uploadFile` asks for them while this chunk loads); sends the file (one PutObject
 * below `multipartThreshold`, else a multipart upload, resumed when `resume` kept one); sets the tags; then,
 * when the server limits the size or type or has a completion hook (its answer holds a `receipt`), tells it
 * the object is stored (`_upload.complete`): it checks the object (deletes one that breaks the limits) and
 * answers its hook's `serverData`.
 *
 * With a checksum (the `checksum` option, else the answer's), the PutObject or each UploadPart carries it
 * (`Content-MD5` or `x-amz-checksum-*`, signed); a multipart upload declares it at CreateMultipartUpload and
 * lists the parts' at CompleteMultipartUpload (with the whole object's CRC for CRC64NVME). With the answer's
 * `ifNoneMatch`, the PutObject or CompleteMultipartUpload carries `If-None-Match: *` (signed).
 *
 * @returns `{ url, bucket, key, checksum? }`, `url` the object's address (SPEC 7.4); `checksum` the object's
 *   when one was sent: as CompleteMultipartUpload reported it where it did (composite `-N`, or CRC64NVME's
 *   full-object), else as computed from the bytes sent (a single PUT's: the value storage verified).
 * @throws as `uploadFile`.
 */
export async function uploadWithTemporaryToken(upload: UploadContext, prepared?: TemporaryTokenUploadResponse): Promise<UploadResult> {
  const { file, options } = upload;
  if (options.strategy !== 'temporary-token') {
    const got = String(options.strategy);
    throw new UploadClientError('INVALID_OPTIONS', `strategy must be one of: ${UPLOAD_STRATEGIES.join(', ')}. Got ${got}.`);
  }
  let session: TokenSession;
  let checksum: ObjectChecksum | undefined;
  // The part options matter to a multipart upload only (as with presigned URLs, a single PUT leaves them unchecked).
  const settings = usesMultipart(file.size, options.multipartThreshold) ? resolveMultipartSettings(file.size, options) : undefined;
  if (settings) {
    const starter = tokenStarterFor(upload);
    ({ checksum } = await new MultipartUpload(upload, settings, starter).start());
    session = starter.session!;
  } else {
    session = sessionOn(upload, prepared ?? (await prepareToken(upload)));
    checksum = await putObjectWithToken(upload, session);
  }
  const tags = options.tags ?? [];
  if (tags.length > 0) await session.putObjectTagging(tags, options.signal);
  // A server with a size or type limit checks the stored object now (storage cannot bind them to
  // credentials), and runs its completion hook.
  const { key, bucket, receipt } = session.prepared;
  return reportCompletion(upload, 'temporary-token', receipt, { url: session.objectUrl, bucket, key, ...(checksum && { checksum }) });
}
