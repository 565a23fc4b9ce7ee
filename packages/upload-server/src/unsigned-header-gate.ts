import { UploadError } from './errors';
import { checkOncePerProcess, type StorageCheck } from './storage-check';
import { createUrlSigner, type Presigner, type StorageClientSource, type UrlSigner } from './presign';
import type { ResolvedStorageSettings } from './settings';
import { probeUnsignedHeaders, type UnsignedHeaderVerdict } from './unsigned-header-probe';

/**
 * How long a refusal is kept before storage is asked again, in milliseconds: a bucket policy applied meanwhile
 * takes effect without a restart, and a misconfigured app asks storage at most once a minute.
 */
export const UNSIGNED_HEADER_RECHECK_MS = 60_000;

/** One probe per process for each storage address, bucket and credentials, shared by every handler and route. */
const verdicts = new Map<string, StorageCheck>();

/** The logged text of a refused presigned strategy: what storage did, what it allows, and the fix. */
export function unsignedHeaderMessage(bucket: string, verdict: UnsignedHeaderVerdict): string {
  const did = [
    verdict.copies ? 'ran a presigned PUT with an added, unsigned x-amz-copy-source as a CopyObject with the server\'s rights (any browser holding an upload URL could copy any object the server can read to its key, past maxFileSize and allowedContentTypes)' : '',
    verdict.locks ? 'applied an added, unsigned x-amz-object-lock-legal-hold to a presigned PUT (any browser could make its object undeletable; radosgw 16.2 does so whatever the bucket policy: upload into a bucket without object lock)' : '',
  ].filter(Boolean);
  return (
    `Upbeam: storage ${did.join(', and ')} on bucket "${bucket}". Presigned PUT URLs (single PUT and multipart parts) are not ` +
    'handed out (a single upload of Upbeam\'s client is answered with a presigned POST instead, where storage takes POST Object; ' +
    'multipart uploads are refused) ' +
    'until storage refuses such requests: apply the bucket policy of unsignedHeaderBucketPolicy(bucket) from ' +
    '@upbeam/upload-server/doctor (`npx @upbeam/upload-server doctor` prints it), or use the temporary-token strategy. ' +
    `Storage is asked again ${UNSIGNED_HEADER_RECHECK_MS / 1000} s after each refusal.`
  );
}

/**
 * The presigned strategy's guard: before the first presigned URL (a PUT or an UploadPart) is handed out, the
 * handler makes the browser's attack once ({@link probeUnsignedHeaders}) and refuses every presigned URL while
 * storage would copy another object or apply an object-lock header that the URL did not sign (a single upload is
 * then answered with a presigned POST instead: `postInsteadOfPut` in `operations/prepare-post.ts`).
 *
 * Runs once per process for each endpoint, bucket and access key (concurrent first requests share it), lazily
 * on the first presigned preparation; a refusal is asked again after {@link UNSIGNED_HEADER_RECHECK_MS}; a
 * probe that got no verdict (storage unreachable, a 5xx) is not kept. Skipped for AWS S3 itself (no
 * `endpoint`, or an access-point ARN), which refuses every unsigned `x-amz-*` header of a presigned request,
 * and when `enabled` is false (the app vouches for its storage: `checkUnsignedHeaders`).
 * @returns A function that resolves when presigned URLs may be handed out.
 * @throws (from the returned function) {@link UploadError} `INVALID_SETTINGS` (500, logged with
 *   {@link unsignedHeaderMessage}) when storage applies them; `INTERNAL_SERVER_ERROR` (500) when storage could
 *   not be asked.
 */
export function createUnsignedHeaderGate(
  settings: ResolvedStorageSettings,
  input: { client: StorageClientSource; presign: Presigner; keyPrefix: string; enabled: boolean; sign?: UrlSigner | undefined },
): () => Promise<void> {
  const sign = 'sign' in input ? input.sign : createUrlSigner(settings, input.client);
  if (!input.enabled || settings.endpoint === undefined || !sign) return () => Promise.resolve();
  const id = `${settings.endpoint}\n${settings.bucket}\n${settings.accessKeyId}`;
  const probe = async () => {
    let verdict: UnsignedHeaderVerdict;
    try {
      verdict = await probeUnsignedHeaders({ bucket: settings.bucket, keyPrefix: input.keyPrefix, presign: input.presign, sign });
    } catch (cause) {
      throw new UploadError('INTERNAL_SERVER_ERROR', 'Upbeam could not ask storage whether it refuses unsigned headers on presigned URLs.', { cause });
    }
    if (verdict.copies || verdict.locks) throw new UploadError('INVALID_SETTINGS', unsignedHeaderMessage(settings.bucket, verdict), { cause: new UnsafePresignedPut(verdict) });
  };
  return checkOncePerProcess(verdicts, id, probe, UNSIGNED_HEADER_RECHECK_MS);
}

/** The cause of the gate's refusal: what storage applied that a presigned PUT did not sign. */
export class UnsafePresignedPut extends Error {
  override name = 'UnsafePresignedPut';
  constructor(readonly verdict: UnsignedHeaderVerdict) {
    super('Storage applies headers a presigned PUT did not sign.');
  }
}

/**
 * Whether `error` is the gate's refusal ({@link createUnsignedHeaderGate}): storage applies unsigned headers to a
 * presigned PUT (a presigned POST is still safe there: `prepare-post.ts`), not a failure to ask it.
 */
export function isUnsafePresignedPut(error: unknown): boolean {
  return error instanceof UploadError && error.cause instanceof UnsafePresignedPut;
}

/** `presign` that waits for `gate` first: every presigned URL of the handler goes through it. */
export function gated<I, O>(presign: (input: I) => Promise<O>, gate: () => Promise<void>): (input: I) => Promise<O> {
  return async (input) => {
    await gate();
    return presign(input);
  };
}
