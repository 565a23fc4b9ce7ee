import type { UploadRequestBody } from '@upbeam/upload-protocol';
import { UploadError } from './errors';

/** S3's limits on object tags: 10 per object, keys of 1-128 characters, values of at most 256. */
export const MAX_OBJECT_TAGS = 10;
const MAX_TAG_KEY = 128;
const MAX_TAG_VALUE = 256;

/** One tag as the client sends it (`tags: [{ Key, Value }]`, the S3 API's shape). */
interface RequestTag {
  Key: string;
  Value: string;
}

function isRequestTag(value: unknown): value is RequestTag {
  const tag = value as Partial<RequestTag> | null;
  return typeof tag === 'object' && tag !== null && typeof tag.Key === 'string' && typeof tag.Value === 'string';
}

/**
 * The tags a presigned upload stores: the route's `tags` and, with `allowObjectTagging`, the request's `tags`
 * (the route's win on a shared key), URL-encoded (`a=1&b=2`). A single PUT signs it as its `x-amz-tagging`
 * header, `''` when there are none, so that storage refuses a PUT whose browser adds tags (the empty header
 * is signed); a multipart upload's CreateMultipartUpload (made by the server) sends it as `Tagging`.
 * @throws {@link UploadError} `FORBIDDEN` (403) for request tags without `allowObjectTagging`;
 *   `INVALID_REQUEST` (400) for tags that are not `[{ Key, Value }]` strings within S3's limits.
 */
export function objectTagging(
  routeTags: Record<string, string> | undefined,
  body: UploadRequestBody,
  allowObjectTagging: boolean | undefined,
): string {
  const tags = new Map<string, string>();
  if (Object.hasOwn(body, 'tags') && body.tags !== undefined) {
    const requested = body.tags;
    if (!allowObjectTagging) throw new UploadError('FORBIDDEN', 'This endpoint does not let uploads set tags.');
    if (!Array.isArray(requested) || !requested.every(isRequestTag)) {
      throw new UploadError('INVALID_REQUEST', '"tags" must be an array of { Key, Value } strings.');
    }
    for (const { Key, Value } of requested) tags.set(Key, Value);
  }
  for (const [key, value] of Object.entries(routeTags ?? {})) tags.set(key, value);
  if (tags.size > MAX_OBJECT_TAGS) throw new UploadError('INVALID_REQUEST', `At most ${MAX_OBJECT_TAGS} tags per object; got ${tags.size}.`);
  for (const [key, value] of tags) {
    if (key.length === 0 || key.length > MAX_TAG_KEY || value.length > MAX_TAG_VALUE) {
      throw new UploadError('INVALID_REQUEST', `A tag key must be 1-${MAX_TAG_KEY} characters and its value at most ${MAX_TAG_VALUE}.`);
    }
  }
  return new URLSearchParams([...tags]).toString();
}
