import type { S3Client } from '@aws-sdk/client-s3';
import { compileApp } from './app';
import { UploadError } from './errors';
import { objectKeyProblem } from './object-key';
import { loadPresigner, loadS3 } from './sdk';
import type { StorageSettings } from './storage-config';

/** Longest lifetime of a SigV4 presigned URL: 7 days, in seconds. */
export const MAX_SIGNED_GET_EXPIRES_IN = 604_800;

/** Options of {@link ObjectAccess.signedGetUrl}. */
export interface SignedGetOptions {
  /** Lifetime of the URL, in seconds, 1 to 604800 (7 days). @default 3600 */
  expiresIn?: number;
  /**
   * Content-Disposition storage answers with (`response-content-disposition`, signed), e.g.
   * `attachment; filename="report.pdf"` to download instead of showing. Unset: the stored one.
   */
  contentDisposition?: string;
}

/** What the app does with a stored object after the upload. */
export interface ObjectAccess {
  /**
   * A presigned GET URL of `key`: opens the object of a private bucket (the default: `objectAcl` is
   * `bucket-owner-full-control` or `private`) for `expiresIn` seconds, to whoever holds it. `result.url` of
   * an upload opens only on a public bucket. Signed locally: no request is made.
   * @throws {@link UploadError} `INVALID_REQUEST` for a key the upload handler would refuse (see
   *   {@link createObjectAccess}) or `expiresIn` outside 1..604800; `MISSING_SETTINGS` as the handler.
   */
  signedGetUrl(key: string, options?: SignedGetOptions): Promise<string>;
  /**
   * Deletes `key` (DeleteObject; needs `s3:DeleteObject`). Deleting a missing key succeeds, as on S3.
   * @throws {@link UploadError} `INVALID_REQUEST` for a key the upload handler would refuse (see
   *   {@link createObjectAccess}); storage errors as they come.
   */
  deleteObject(key: string): Promise<void>;
}

/**
 * Signed GET URLs and deletes on the handler's storage, with the same settings (credentials, bucket,
 * region, endpoint, provider; each falls back to its `S3_UPLOAD_*` variable, read on first use). The AWS SDK
 * is loaded on first use. Objects stored with SSE-C (`sseCustomerKey`) cannot be read through a plain URL.
 *
 * Keys get the upload handler's checks (any prefix): a key over 1024 bytes, with an empty, `.` or `..`
 * segment, a backslash, a control or bidirectional-override character, or under `.upbeam/` (the handler's
 * own objects) is refused before anything is signed or sent, so `uploads/../private/x` never reaches storage
 * (S3 and radosgw would read the literal key; a server that resolves paths, the one beyond `uploads/`).
 * Whether the caller may read or delete a key is the app's to decide: check it with {@link isKeyUnder}
 * against the user's own prefix before calling these with a key the browser sent.
 *
 * @example
 * const objects = createObjectAccess(); // the S3_UPLOAD_* variables
 * if (!isKeyUnder(key, `uploads/${user.id}/`)) return new Response('Not found', { status: 404 });
 * const url = await objects.signedGetUrl(key, { expiresIn: 300 });
 * await objects.deleteObject(oldAvatarKey);
 */
export function createObjectAccess(settings: StorageSettings = {}): ObjectAccess {
  // The app of these settings: resolved, and the S3 client built, on first use (a failure is tried again).
  // `process.env` is where they fall back to, whatever else the object passed holds.
  const app = compileApp({ ...settings, env: undefined, routes: undefined });
  const connect = async (): Promise<{ s3: S3Client; bucket: string }> => {
    const { bucket } = app.settings();
    return { s3: await app.client(), bucket };
  };
  const checkKey = (key: string) => {
    const problem = objectKeyProblem(key, '');
    if (problem !== undefined) throw new UploadError('INVALID_REQUEST', `The object key ${problem}.`);
  };
  return {
    async signedGetUrl(key, options = {}) {
      checkKey(key);
      const expiresIn = options.expiresIn ?? 3600;
      if (!Number.isInteger(expiresIn) || expiresIn < 1 || expiresIn > MAX_SIGNED_GET_EXPIRES_IN) {
        throw new UploadError('INVALID_REQUEST', `expiresIn must be a whole number of seconds from 1 to ${MAX_SIGNED_GET_EXPIRES_IN}.`);
      }
      const { s3, bucket } = await connect();
      const [{ GetObjectCommand }, { getSignedUrl }] = await Promise.all([loadS3(), loadPresigner()]);
      const command = new GetObjectCommand({
        Bucket: bucket,
        Key: key,
        ...(options.contentDisposition === undefined ? {} : { ResponseContentDisposition: options.contentDisposition }),
      });
      return getSignedUrl(s3, command, { expiresIn });
    },
    async deleteObject(key) {
      checkKey(key);
      const { s3, bucket } = await connect();
      const { DeleteObjectCommand } = await loadS3();
      await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    },
  };
}
