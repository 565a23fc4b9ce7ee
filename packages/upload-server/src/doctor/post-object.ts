import { DeleteObjectCommand, HeadObjectCommand } from '@aws-sdk/client-s3';
import { createUrlSigner } from '../presign';
import { createPostSigner } from '../presign-post';
import { PROVIDER_PRESETS, type StorageProvider } from '../providers';
import type { CheckContext, Finding } from './finding';

/** Seconds a probe form stays valid: it is sent at once. */
const PROBE_POLICY_SECONDS = 60;

/**
 * `post-object`: does storage take a presigned POST (S3 POST Object with a SigV4 policy, the `presigned-post`
 * strategy), and does it enforce the policy's size range? One POST of a 4-byte object under `keyPrefix` with a
 * policy of 1-4 bytes (expects 201 and the object), one POST of 5 bytes with the same kind of policy (expects a
 * refusal), then a DeleteObject of the first. Skipped where the provider preset says storage has no POST Object
 * (`postObject: false`: R2, B2).
 */
export async function checkPostObject(context: CheckContext, keyPrefix: string, provider: StorageProvider | undefined): Promise<Finding> {
  const check = 'post-object';
  if (provider !== undefined && PROVIDER_PRESETS[provider].postObject === false) {
    return { check, status: 'skipped', message: `Not checked: provider "${provider}" has no POST Object; the presigned-post strategy is refused there (use presigned or temporary-token).` };
  }
  const { settings, s3 } = context;
  const sign = createPostSigner(settings, createUrlSigner(settings, async () => s3));
  const id = Math.random().toString(36).slice(2, 10);
  const key = `${keyPrefix}upbeam-doctor-post-${id}`;
  const form = async (name: string, bytes: number) => {
    const answer = await sign({ key: name, contentType: 'text/plain', minSize: 1, maxSize: 4, expiresIn: PROBE_POLICY_SECONDS });
    const body = new FormData();
    for (const [field, value] of Object.entries(answer.fields)) body.append(field, value);
    body.append('file', new Blob(['x'.repeat(bytes)]));
    const response = await fetch(answer.url, { method: 'POST', body, signal: AbortSignal.timeout(15_000) });
    const text = await response.text();
    return { status: response.status, text, versionId: response.headers.get('x-amz-version-id') ?? undefined };
  };
  // On a versioned bucket (object lock included) the version itself is deleted: no version, no delete marker left.
  const remove = (name: string, VersionId?: string) =>
    s3.send(new DeleteObjectCommand({ Bucket: settings.bucket, Key: name, ...(VersionId && { VersionId }) })).catch(() => {});
  try {
    const taken = await form(key, 4);
    if (taken.status !== 201 && taken.status !== 200 && taken.status !== 204) {
      return {
        check,
        status: 'fail',
        message: `Storage answered ${taken.status} to a presigned POST (POST Object with a policy): the presigned-post strategy cannot work here; use presigned or temporary-token.`,
      };
    }
    const head = await s3.send(new HeadObjectCommand({ Bucket: settings.bucket, Key: key })).catch(() => undefined);
    const stored = head?.ContentLength;
    await remove(key, head?.VersionId ?? taken.versionId);
    if (stored !== 4) return { check, status: 'fail', message: `Storage answered ${taken.status} to a presigned POST but stored no object: the presigned-post strategy cannot work here.` };
    const tooLarge = `${key}-large`;
    const over = await form(tooLarge, 5);
    if (over.status < 400) {
      await remove(tooLarge, over.versionId);
      return {
        check,
        status: 'fail',
        message: 'Storage took a presigned POST larger than its policy\'s content-length-range: it does not enforce POST policies; do not use the presigned-post strategy here.',
      };
    }
    return { check, status: 'ok', message: 'Storage takes presigned POSTs (POST Object) and refuses a file outside the policy\'s size range: the presigned-post strategy works.' };
  } catch (error) {
    await remove(key);
    return { check, status: 'warn', message: `Could not try a presigned POST (${(error as Error).message}): the check needs s3:PutObject and s3:DeleteObject under "${keyPrefix}".` };
  }
}
