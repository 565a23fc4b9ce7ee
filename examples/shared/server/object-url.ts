import { createObjectAccess, isKeyUnder, type StorageSettings } from '@upbeam/upload-server';
import { userKeyPrefix } from './example-user';

/** Lifetime of the signed GET URLs the page gets, in seconds. */
const OBJECT_URL_SECONDS = 300;

/**
 * Signed GET URLs for the page's uploads: the bucket is private (`objectAcl: 'private'`), so `result.url`
 * does not open; the page asks for a URL valid 5 minutes. Only the signed-in user's own keys get one: a key
 * under their prefix (`next-s3-uploads/{userId}/`, where `onBeforeUpload` stores their uploads) that the
 * upload handler could have made. `isKeyUnder` refuses a `..` segment: `startsWith` alone would let
 * `next-s3-uploads/{userId}/../{other user}/x` through.
 */
export function objectUrlSigner(settings: StorageSettings): (key: string, user: string | undefined) => Promise<string | undefined> {
  const objects = createObjectAccess(settings);
  return async (key, user) =>
    user !== undefined && isKeyUnder(key, userKeyPrefix(user)) ? objects.signedGetUrl(key, { expiresIn: OBJECT_URL_SECONDS }) : undefined;
}
