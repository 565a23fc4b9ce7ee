import type { HeadObjectCommandOutput, S3Client } from '@aws-sdk/client-s3';
import { statusOf } from './completion-marker';
import { UploadError } from './errors';
import { loadS3 } from './sdk';

/** What the completion's HEAD said of a refused object: its version and any object lock on it. */
export type RefusedVersion = Pick<HeadObjectCommandOutput, 'VersionId' | 'ObjectLockMode' | 'ObjectLockRetainUntilDate' | 'ObjectLockLegalHoldStatus'>;

/**
 * Deletes the object the completion refused (too large, a type not allowed): the very version its HEAD saw, by
 * its `VersionId`, since on a versioned bucket (every bucket with object lock) a DeleteObject without one only
 * adds a delete marker and the refused bytes stay, billed and readable by version. A lock the browser set
 * (storage that applies its object-lock headers: Ceph radosgw 16.2) is undone where it can be: a legal hold is
 * lifted first (`s3:PutObjectLegalHold`), GOVERNANCE retention is bypassed (`s3:BypassGovernanceRetention`).
 *
 * Where the version cannot be deleted, `log` gets an {@link UploadError} that says which version stays and until
 * when, and this resolves (the browser still gets the refusal, without storage's text): COMPLIANCE retention (no
 * one, the bucket owner included, can delete it before its date), or storage refusing the delete of a version
 * (then a plain DeleteObject hides it behind a delete marker: grant `s3:DeleteObjectVersion`).
 * @throws Storage errors of any other kind (500, logged).
 */
export async function removeRefusedObject(
  client: S3Client,
  bucket: string,
  key: string,
  head: RefusedVersion,
  log: (error: unknown) => void,
): Promise<void> {
  const { DeleteObjectCommand, PutObjectLegalHoldCommand } = await loadS3();
  const { VersionId, ObjectLockMode: mode, ObjectLockRetainUntilDate: until, ObjectLockLegalHoldStatus: hold } = head;
  const version = `version ${VersionId ?? '(none)'} of "${key}" in bucket "${bucket}"`;
  try {
    if (hold === 'ON') {
      await client.send(new PutObjectLegalHoldCommand({ Bucket: bucket, Key: key, VersionId, LegalHold: { Status: 'OFF' } }));
    }
    const bypass = mode === 'GOVERNANCE' ? { BypassGovernanceRetention: true } : {};
    await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key, VersionId, ...bypass }));
  } catch (error) {
    if (mode === 'COMPLIANCE' && until !== undefined && until.getTime() > Date.now()) {
      log(
        new UploadError(
          'INTERNAL_SERVER_ERROR',
          `Upbeam refused the ${version}, but cannot delete it: it has COMPLIANCE retention until ${until.toISOString()} (set by the uploader), which no one can remove before then. Use a bucket without object lock for uploads.`,
          { cause: error },
        ),
      );
      return;
    }
    if (VersionId === undefined || statusOf(error) !== 403) throw error;
    await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    log(
      new UploadError(
        'INTERNAL_SERVER_ERROR',
        `Upbeam refused the ${version}, but storage refused to delete that version (403${hold === 'ON' || mode ? `; lock: ${[mode, hold === 'ON' ? 'legal hold' : ''].filter(Boolean).join(', ')}` : ''}): it stays behind a delete marker. Grant the server's credentials s3:DeleteObjectVersion (and s3:PutObjectLegalHold, s3:BypassGovernanceRetention on a bucket with object lock).`,
        { cause: error },
      ),
    );
  }
}
